/**
 * Pure: parameter values as text, as a client writes them in a path, a query or a header: a valid one (the
 * parameter's default or example, else generated from its schema), and a well-formed one no run creates (an
 * unknown id). Each is held to the parameter's own validator after the coercion the mock applies.
 */
import { coerceParam, type ParamSpec } from '../../spec/compile';
import { seededRandom } from '../../spec/random';
import type { Schema } from '../../spec/schema-shape';
import { generateValid } from './values';

/** A parameter value as text: an array comma-joined (the form style), an object as JSON. */
export const paramText = (v: unknown): string =>
  Array.isArray(v)
    ? v.map(String).join(',')
    : typeof v === 'object' && v !== null
      ? JSON.stringify(v)
      : String(v);

/** Whether `text` is a valid value of `p` (after the coercion the mock applies). */
export const acceptsText = (p: ParamSpec, text: string): boolean =>
  p.validate(coerceParam(p.schema, text)) === true;

/**
 * A valid text for `p`: its default, first example or example when valid, else one generated from its schema
 * (seeded: the same each run).
 */
export function validParamText(p: ParamSpec): string {
  const s = p.schema as Schema & { default?: unknown; examples?: unknown[]; example?: unknown };
  const generated = generateValid(p.schema, seededRandom(0), 'param');
  for (const c of [s.default, s.examples?.[0], s.example, generated]) {
    if (c === undefined || c === null) continue;
    const text = paramText(c);
    if (acceptsText(p, text)) return text;
  }
  return paramText(generated);
}

/**
 * A text `p` accepts that names nothing a run made: a large integer within the bounds, a UUID, or the run's
 * prefix; undefined where every valid value may be a known one (an enum, a boolean, a const).
 */
export function unknownParamText(p: ParamSpec, runPrefix: string): string | undefined {
  const s = p.schema as Schema & { enum?: unknown[]; const?: unknown; maximum?: number };
  if (Array.isArray(s.enum) || s.const !== undefined) return undefined;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('boolean')) return undefined;
  const generated = generateValid(p.schema, seededRandom(7), `${runPrefix}-no-such`);
  const numeric = types.includes('integer') || types.includes('number');
  const candidates = numeric
    ? ['2147483000', typeof s.maximum === 'number' ? String(Math.floor(s.maximum)) : undefined]
    : [
        `${runPrefix}-no-such-id`,
        '00000000-0000-4000-8000-0000deadbeef',
        typeof generated === 'object' ? undefined : paramText(generated),
      ];
  return candidates.find((c): c is string => c !== undefined && c !== '' && acceptsText(p, c));
}

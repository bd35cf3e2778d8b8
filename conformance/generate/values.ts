/**
 * Request bodies generated from a schema with a seeded random source: valid ones, and mutations that break
 * exactly one constraint. A valid body varies with the random source (enum picks, optional properties, plain
 * strings carrying the run prefix) and is then held to the request view of its schema with the mock's own care:
 * strings with a format or a pattern, and any value that still misses its schema (a multiple, an exclusive bound,
 * a length, a required property at any depth, a null), come from spec/sample.ts's generator and spec/conform.ts's
 * repair, the one home of what makes a value valid.
 */
import { conformTo } from '../../spec/conform';
import { sampleOf } from '../../spec/sample';
import { fits } from '../../spec/schema-fits';
import { arrayItems, objectShape, typesOf, type Schema } from '../../spec/schema-shape';
import { requestView } from '../../spec/schema-views';

export interface BodyCase {
  label: string;
  body: unknown;
}

const WORDS = ['dog', 'cat', 'rabbit', 'hamster', 'parrot', 'ferret', 'turtle', 'gecko', 'canary', 'pony'];

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** The JSON type a value of this schema gets: its first non-null type, else what its keywords suggest. */
export function mainType(schema: Schema): string | undefined {
  const types = typesOf(schema).filter((t) => t !== 'null');
  if (types[0]) return types[0];
  if (objectShape(schema)) return 'object';
  if (arrayItems(schema)) return 'array';
  const s = schema as Record<string, unknown>;
  if (s.minLength !== undefined || s.maxLength !== undefined || s.pattern !== undefined) return 'string';
  if (s.minimum !== undefined || s.maximum !== undefined) return 'number';
  return undefined;
}

export interface GenerateOptions {
  /** Every optional property too (a lifecycle needs them to see a merge patch keep them). */
  full?: boolean;
}

/** Keywords that constrain nothing. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'example',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
  'xml',
]);

/** How deep optional properties are filled: a schema that refers to itself (an owner's deputy) ends there. */
const OPTIONAL_DEPTH = 4;

/**
 * A value valid against the request view of `schema` (what a client may send); strings carry the run prefix so
 * the data is recognisable.
 */
export function generateValid(
  schema: Schema,
  random: () => number,
  prefix: string,
  options: GenerateOptions = {},
): unknown {
  const value = candidate(schema, random, prefix, options, 0);
  const view = requestView(schema);
  if (fits(value, view)) return value;
  return conformTo(value, view, 0, { direction: 'request', variant: Math.floor(random() * 1000) });
}

/** A value of `schema` drawn with the random source; generateValid holds it to the schema. */
function candidate(
  schema: Schema,
  random: () => number,
  prefix: string,
  options: GenerateOptions,
  depth: number,
): unknown {
  const s = schema as Schema & Record<string, unknown>;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return pick(s.enum, random);
  // One branch of a oneOf/anyOf, merged with what the schema says beside it.
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (branches && branches.length > 0) {
    const rest: Record<string, unknown> = { ...s };
    delete rest.oneOf;
    delete rest.anyOf;
    delete rest.discriminator;
    const branch = pick(branches, random);
    // Beside a oneOf, only words for readers (GitHub's `public: oneOf [boolean, "true"|"false"]`): the branch is
    // the whole schema, its enum and type included.
    if (Object.keys(rest).every((k) => ANNOTATIONS.has(k) || k.startsWith('x-')))
      return candidate(branch, random, prefix, options, depth);
    const allOf = [...(Array.isArray(rest.allOf) ? rest.allOf : []), branch];
    return candidate({ ...rest, allOf } as Schema, random, prefix, options, depth);
  }
  const type = mainType(schema);
  if (type === 'object') {
    const shape = objectShape(schema);
    const out: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(shape?.properties ?? {})) {
      if ((prop as { readOnly?: unknown }).readOnly === true) continue;
      const optional = depth < OPTIONAL_DEPTH && (options.full || random() < 0.5);
      if (shape?.required.has(name) || optional)
        out[name] = candidate(prop, random, `${prefix}-${name}`, options, depth + 1);
    }
    // minProperties (a merge patch that must change something): the optional ones left out, in order, until met.
    const least = typeof s.minProperties === 'number' ? s.minProperties : 0;
    for (const [name, prop] of Object.entries(shape?.properties ?? {})) {
      if (Object.keys(out).length >= least) break;
      if (name in out || (prop as { readOnly?: unknown }).readOnly === true) continue;
      out[name] = candidate(prop, random, `${prefix}-${name}`, options, depth + 1);
    }
    return out;
  }
  if (type === 'array') {
    const min = typeof s.minItems === 'number' ? s.minItems : 1;
    const items = arrayItems(schema) ?? {};
    return Array.from({ length: Math.max(1, min) }, () =>
      candidate(items, random, prefix, options, depth + 1),
    );
  }
  if (type === 'integer' || type === 'number') return numberIn(s, type, random);
  if (type === 'boolean') return random() < 0.5;
  return stringFor(s, random, prefix);
}

function numberIn(s: Record<string, unknown>, type: string, random: () => number): number {
  const lo =
    typeof s.minimum === 'number'
      ? s.minimum
      : typeof s.exclusiveMinimum === 'number'
        ? s.exclusiveMinimum + 1
        : 0;
  const hi =
    typeof s.maximum === 'number'
      ? s.maximum
      : typeof s.exclusiveMaximum === 'number'
        ? s.exclusiveMaximum - 1
        : lo + 1000;
  const value = lo + random() * Math.max(0, hi - lo);
  return type === 'integer'
    ? Math.max(Math.ceil(lo), Math.min(Math.floor(hi), Math.round(value)))
    : Math.round(value * 100) / 100;
}

function stringFor(s: Record<string, unknown>, random: () => number, prefix: string): string {
  const n = Math.floor(random() * 10000);
  // A format or a pattern: the shared generator's string (a draw of its own for each n).
  if (typeof s.format === 'string' || typeof s.pattern === 'string') {
    const text = sampleOf({ ...s, type: 'string' } as Schema, { skipExamples: true, variant: n });
    if (typeof text === 'string') return text;
  }
  let text = `${prefix}-${pick(WORDS, random)}-${n}`;
  const max = typeof s.maxLength === 'number' ? s.maxLength : undefined;
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  // Keep the distinctive end (the number) when a bound cuts the prefix.
  if (max !== undefined && text.length > max) text = text.slice(text.length - max);
  if (text.length < min) text = text.padEnd(min, 'x');
  return text;
}

/** A value of a JSON type the schema does not allow (null only when null is not allowed). */
export function wrongTypeValue(schema: Schema, random: () => number): unknown {
  const allowed = new Set(typesOf(schema));
  const type = mainType(schema);
  if (type) allowed.add(type);
  if (allowed.has('integer')) allowed.add('number');
  if (allowed.has('number')) allowed.add('integer');
  const candidates: Array<[string, unknown]> = [
    ['string', 'not-a-number'],
    ['integer', 42],
    ['boolean', true],
    ['array', ['x']],
    ['object', { x: 1 }],
    ['null', null],
  ];
  const usable = candidates.filter(([t]) => !allowed.has(t)).map(([, v]) => v);
  return usable.length > 0 ? pick(usable, random) : undefined;
}

/** Schema-violating variants of a valid object body, `count` of them chosen by the random source. */
export function generateInvalid(
  schema: Schema,
  random: () => number,
  prefix: string,
  count: number,
): BodyCase[] {
  const base = generateValid(schema, random, prefix) as Record<string, unknown>;
  const shape = objectShape(schema);
  const cases: BodyCase[] = [];
  for (const name of shape?.required ?? []) {
    const body = { ...base };
    delete body[name];
    cases.push({ label: `required "${name}" missing`, body });
  }
  for (const [name, prop] of Object.entries(shape?.properties ?? {})) {
    // A property only some branches name may be free in the branch the body took: no sure violation.
    if ((prop as { readOnly?: unknown }).readOnly === true || shape?.uncertain?.has(name)) continue;
    const value = wrongTypeValue(prop, random);
    if (value === undefined) continue;
    cases.push({ label: `"${name}" is ${JSON.stringify(value)}`, body: { ...base, [name]: value } });
  }
  return shuffle(cases, random).slice(0, count);
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Names of readOnly properties of a (response) schema: the server assigns them, the client must not. */
export function readOnlyProperties(schema: Schema | undefined): string[] {
  return Object.entries(objectShape(schema)?.properties ?? {})
    .filter(([, sub]) => (sub as Schema).readOnly === true)
    .map(([name]) => name);
}

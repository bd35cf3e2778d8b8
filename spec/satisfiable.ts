/**
 * Pure: response schemas no value can meet (issue 30), found once at start so the mock says so in one line
 * naming the operation and status, rather than answering a value its own judge refuses without a word: `allOf`
 * parts with no type in common, `minLength` above `maxLength` (likewise items, properties and number bounds),
 * an `enum` or `const` none of whose values fits the rest of the schema, a required property that cannot be
 * met or is not allowed, a `oneOf`/`anyOf` no branch of which can be met, `not: {}`. A constraint that another
 * allowed type escapes (`type: [string, "null"]` with `minLength: 5, maxLength: 2` takes `null`) is no
 * contradiction. Each schema object is judged once; a cycle counts as satisfiable.
 */
import { isObject } from './json';
import type { CompiledSpec } from './compile';
import { merged } from './sample';
import { fits, typesOfSchema } from './schema-fits';

type Json = Record<string, unknown>;
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** Why no value meets `schema` (with the JSON pointer of the part that cannot be met), or undefined. */
export function unsatisfiable(schema: unknown, memo = new Map<object, string | null>()): string | undefined {
  if (schema === false) return 'the schema is false';
  if (!isObject(schema)) return undefined;
  const known = memo.get(schema);
  if (known !== undefined) return known ?? undefined;
  memo.set(schema, null); // in progress: a cycle back here counts as satisfiable
  const reason = judge(schema, memo);
  memo.set(schema, reason ?? null);
  return reason;
}

const bounds: Array<[string, string, string]> = [
  ['minLength', 'maxLength', 'string'],
  ['minItems', 'maxItems', 'array'],
  ['minProperties', 'maxProperties', 'object'],
];

function judge(schema: Json, memo: Map<object, string | null>): string | undefined {
  const s = merged(schema);
  const types = typesOfSchema(s);
  if (Array.isArray(s.type) && s.type.length === 0) return 'its allOf parts allow no type in common';
  const only = (kind: string) =>
    types.length > 0 && types.every((t) => t === kind || (kind === 'number' && t === 'integer'));
  for (const [lo, hi, kind] of bounds) {
    const a = num(s[lo]);
    const b = num(s[hi]);
    if (a !== undefined && b !== undefined && a > b && only(kind)) return `${lo} ${a} > ${hi} ${b}`;
  }
  const lo = Math.max(num(s.minimum) ?? -Infinity, num(s.exclusiveMinimum) ?? -Infinity);
  const hi = Math.min(num(s.maximum) ?? Infinity, num(s.exclusiveMaximum) ?? Infinity);
  const open = s.exclusiveMinimum !== undefined || s.exclusiveMaximum !== undefined;
  if (only('number') && (lo > hi || (open && lo === hi))) return `no number lies between ${lo} and ${hi}`;
  if (s.const !== undefined && !fits(s.const, schema))
    return `its const ${JSON.stringify(s.const)} does not fit it`;
  const enums = [
    s.enum,
    ...(Array.isArray(s.allOf) ? s.allOf.map((p) => (isObject(p) ? p.enum : undefined)) : []),
  ];
  for (const list of enums)
    if (Array.isArray(list) && !list.some((v) => fits(v, schema)))
      return `none of its enum values (${list
        .map((v) => JSON.stringify(v))
        .join(', ')
        .slice(0, 80)}) fits it`;
  if (isObject(s.not) && Object.keys(s.not).length === 0) return 'not: {} refuses every value';
  if (s.not === true) return 'not: true refuses every value';
  for (const key of ['oneOf', 'anyOf'])
    if (Array.isArray(s[key]) && (s[key] as unknown[]).length > 0) {
      const reasons = (s[key] as unknown[]).map((b) => unsatisfiable(b, memo));
      if (reasons.every((r) => r !== undefined)) return `no branch of its ${key} can be met (${reasons[0]})`;
    }
  for (const [i, part] of (Array.isArray(s.allOf) ? s.allOf : []).entries()) {
    const r = unsatisfiable(part, memo);
    if (r) return `/allOf/${i}: ${r}`;
  }
  if (only('object')) {
    const props = isObject(s.properties) ? s.properties : {};
    for (const name of Array.isArray(s.required) ? (s.required as unknown[]) : []) {
      if (typeof name !== 'string') continue;
      const prop = name in props ? props[name] : s.additionalProperties;
      if (prop === false) return `the required property ${name} is not allowed`;
      const r = unsatisfiable(prop, memo);
      if (r) return `/${name}: ${r}`;
    }
  }
  if (only('array') && (num(s.minItems) ?? 0) > 0) {
    const r = unsatisfiable(s.items, memo);
    if (r) return `/items: ${r}`;
  }
  return undefined;
}

/** One line per documented JSON answer no value can meet: `GET /things 200: … (minLength 5 > maxLength 2)`. */
export function unsatisfiableAnswers(spec: CompiledSpec): string[] {
  const memo = new Map<object, string | null>();
  const out: string[] = [];
  for (const op of spec.operations)
    for (const [status, r] of op.responses) {
      if (!r.schema) continue;
      const reason = unsatisfiable(r.schema, memo);
      if (reason)
        out.push(
          `${op.operationId} (${op.method.toUpperCase()} ${op.path}) ${status}: no answer can meet the documented schema (${reason}); the mock sends the nearest value it can make`,
        );
    }
  return out;
}

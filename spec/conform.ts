/**
 * Answers valid against the response view of their schema (issue 30): a stored or echoed value is kept where
 * it fits, coerced where the request's schema took another form of it (`public: "true"` where the answer says
 * boolean), and generated where it cannot be (a property missing at any depth, a value of the wrong shape);
 * properties the answer's schema does not allow are left out. The compiled validator judges the result, and a
 * value generated from the whole schema replaces it when it still fails.
 */
import type { ValidateFunction } from 'ajv';
import type { Schema } from './schema-shape';
import { ABSENT_KEYWORD } from './schema-views';
import { merged, sampleOf, type SampleOptions } from './sample';
import { exclusiveTo } from './one-of';
import { fits, patternOf, typesOfSchema } from './schema-fits';
import { isObject } from './json';

type Json = Record<string, unknown>;

/** `value` as another JSON type the schema takes: `"true"` -> true, `"5"` -> 5, 5 -> `"5"`; else undefined. */
function coerced(value: unknown, s: Json): unknown {
  for (const type of typesOfSchema(s).length ? typesOfSchema(s) : ['string', 'number', 'boolean']) {
    let v: unknown;
    if (type === 'boolean' && (value === 'true' || value === 'false')) v = value === 'true';
    else if ((type === 'number' || type === 'integer') && typeof value === 'string' && value.trim() !== '')
      v = Number(value);
    else if (type === 'string' && (typeof value === 'number' || typeof value === 'boolean'))
      v = String(value);
    else if (type === 'null' && value === undefined) v = null;
    if (v !== undefined && fits(v, s)) return v;
  }
  return undefined;
}

function conformObject(value: Json, s: Json, schema: Schema, depth: number, options: SampleOptions): Json {
  const props = isObject(s.properties) ? s.properties : {};
  const patternProps = isObject(s.patternProperties) ? Object.entries(s.patternProperties) : [];
  const absent = new Set(Array.isArray(s[ABSENT_KEYWORD]) ? (s[ABSENT_KEYWORD] as string[]) : []);
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const out: Json = {};
  for (const [name, v] of Object.entries(value)) {
    if (absent.has(name) || v === undefined) continue;
    const own = props[name] ?? patternProps.find(([p]) => patternOf(p)?.test(name))?.[1];
    const prop = own ?? s.additionalProperties;
    if (prop === false) continue;
    out[name] = prop === undefined || prop === true ? v : conformTo(v, prop as Schema, depth + 1, options);
    // An optional value that could not be brought to its schema is left out rather than answered wrong.
    if (isObject(prop) && !required.includes(name) && !fits(out[name], prop)) delete out[name];
  }
  const missing = required.filter((r) => !(r in out));
  if (missing.length > 0) {
    const filler = sampleOf(schema, { ...options, requiredOnly: true });
    for (const r of missing)
      if (isObject(filler) && r in filler) out[r] = filler[r];
      else out[r] = sampleOf((props[r] ?? {}) as Schema, { ...options, name: r });
  }
  return out;
}

/**
 * One branch of a oneOf/anyOf that the value can be brought to; for a `oneOf`, the branch is chosen first and
 * the value then made to match it alone (./one-of.ts: a sibling's required property left out, a property the
 * sibling describes set to a value it refuses), so an echoed record never matches two branches.
 */
function conformToBranch(
  value: unknown,
  s: Json,
  branches: unknown[],
  depth: number,
  options: SampleOptions,
): unknown {
  const schema = s as Schema;
  const rest: Json = { ...s, oneOf: undefined, anyOf: undefined, discriminator: undefined };
  for (const b of branches) {
    const home = { ...rest, allOf: [...(Array.isArray(s.allOf) ? s.allOf : []), b] };
    const tried = conformTo(value, home as Schema, depth + 1, options);
    if (fits(tried, schema)) return tried;
    if (!Array.isArray(s.oneOf) || !fits(tried, home)) continue;
    const only = exclusiveTo({
      value: tried,
      branch: isObject(b) ? merged(b) : {},
      siblings: branches.filter((x) => x !== b).map((x) => (isObject(x) ? merged(x) : x)),
      own: merged(home),
      merge: merged,
      s,
      schema: s,
      fuller: () => undefined,
    });
    if (only !== undefined) return only;
  }
  return sampleOf(schema, options);
}

/**
 * `value` made to fit `schema` (see the file's comment); the value itself when it fits already. `options` are
 * the generator's for what must be generated (`direction: 'request'` for a body a client sends).
 */
export function conformTo(
  value: unknown,
  schema: Schema | undefined,
  depth = 0,
  options: SampleOptions = {},
): unknown {
  if (!isObject(schema) || fits(value, schema)) return value;
  if (depth > 32) return sampleOf(schema, options);
  const s = schema as Json;
  const asOther = coerced(value, s);
  if (asOther !== undefined) return asOther;
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (branches) return conformToBranch(value, s, branches, depth, options);
  let out = value;
  if (isObject(value) && (typesOfSchema(s).includes('object') || isObject(s.properties) || !s.type)) {
    out = conformObject(value, s, schema, depth, options);
    for (const part of Array.isArray(s.allOf) ? s.allOf : [])
      if (isObject(part) && !fits(out, part)) out = conformTo(out, part as Schema, depth + 1, options);
  } else if (Array.isArray(value) && s.items !== undefined) {
    const max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
    out = value.slice(0, max).map((v) => conformTo(v, s.items as Schema, depth + 1, options));
  }
  return fits(out, schema) ? out : sampleOf(schema, options);
}

/**
 * The answer's body valid against its compiled validator: `value` conformed, else generated from the schema;
 * `unsatisfied` is told when neither is valid (the schema cannot be met, or not by this generator).
 */
export function validAnswer(
  value: unknown,
  schema: Schema | undefined,
  validate: ValidateFunction | undefined,
  unsatisfied?: () => void,
): unknown {
  if (!schema || !validate || validate(value)) return value;
  const fixed = conformTo(value, schema);
  if (validate(fixed)) return fixed;
  const generated = sampleOf(schema);
  if (validate(generated)) return generated;
  const plain = sampleOf(schema, { skipExamples: true });
  if (validate(plain)) return plain;
  unsatisfied?.();
  return fixed;
}

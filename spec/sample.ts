/**
 * Values generated from a schema where the document gives no example, valid by construction: formats, patterns
 * (randexp), lengths, bounds, enums, required properties at every depth, allOf merged, a oneOf/anyOf branch
 * that fits the whole schema, never `null` where the schema allows something else. Deterministic (answers are
 * stable from run to run), and a schema graph with cycles ends where only optional parts recur. Each candidate
 * is checked with ./schema-fits.ts; the caller checks a whole answer with the compiled validator.
 */
import type { Schema } from './schema-shape';
import { ABSENT_KEYWORD } from './schema-views';
import { fits, typesOfSchema } from './schema-fits';
import { numberFor, stringFor } from './sample-scalars';
import { exclusiveTo } from './one-of';
import type { Invention } from './believable';
import { isObject } from './json';

type Json = Record<string, unknown>;

export interface SampleOptions {
  /** Only the required properties of objects (and the fewest array items). */
  requiredOnly?: boolean;
  /** Leave out the document's `example`/`default` values inside the schema (they may contradict it). */
  skipExamples?: boolean;
  /**
   * `request`: a body a client sends (the runner's): readOnly properties are left out, as a client leaves them;
   * default `response`: writeOnly ones are (a stored password is never answered).
   */
  direction?: 'request' | 'response';
  /** Another value of the same schema (another pattern draw, a later date): the runner varies its bodies. */
  variant?: number;
  /** The name of the value's field (a header's, a parameter's): what it says the value holds (./believable.ts). */
  name?: string;
  /** Mixed into every invented value's seed: another seed, other values. */
  seed?: number;
  /** Now, for times invented near it (`created_at`); the clock's time by default. */
  nowMs?: number;
}

/** Optional properties are filled this deep; below it, and in a cycle, only what is required. */
const OPTIONAL_DEPTH = 5;
/** Nothing is generated below this depth (a cycle of required properties cannot be satisfied). */
const MAX_DEPTH = 24;

interface Walk {
  options: SampleOptions;
  /** The schemas being generated now (a schema met again below itself is a cycle). */
  stack: object[];
  /** The field names down to the value generated now (an array's items take its name, made singular). */
  names: string[];
  nowMs: number;
}

/** Where a value is invented: its field's name and path (see ./believable.ts). */
function inventionOf(walk: Walk, variant: number): Invention {
  const { names } = walk;
  return {
    name: names[names.length - 1],
    path: names.join('.'),
    variant,
    seed: walk.options.seed ?? 0,
    nowMs: walk.nowMs,
  };
}

/** `emails` -> `email`, `ips` -> `ip`: an array's items are named by its name. */
const singular = (name: string): string =>
  /[^s]s$/i.test(name) && name.length > 3 ? name.slice(0, -1) : name;

/** `gen` for the value of field `name` (pushed on the walk's names while it is generated). */
function genNamed(schema: unknown, walk: Walk, variant: number, depth: number, name: string): unknown {
  walk.names.push(name);
  try {
    return gen(schema, walk, variant, depth);
  } finally {
    walk.names.pop();
  }
}

/** Keywords holding one schema: two parts' are both met. */
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'contains', 'propertyNames']);

/** `allOf` parts merged into one schema (properties and required joined, the narrower bounds kept). */
export function merged(s: Json): Json {
  if (!Array.isArray(s.allOf)) return s;
  const out: Json = { ...s };
  delete out.allOf;
  for (const raw of s.allOf) {
    if (!isObject(raw)) continue;
    const part = merged(raw);
    for (const [k, v] of Object.entries(part)) {
      const have = out[k];
      if (have === undefined) out[k] = v;
      else if (k === 'properties' && isObject(have) && isObject(v)) {
        const props: Json = { ...have };
        for (const [name, p] of Object.entries(v))
          props[name] = props[name] === undefined || props[name] === p ? p : { allOf: [props[name], p] };
        out[k] = props;
      } else if ((k === 'required' || k === ABSENT_KEYWORD) && Array.isArray(have) && Array.isArray(v))
        out[k] = [...new Set([...(have as unknown[]), ...(v as unknown[])])];
      else if (k === 'type') {
        const a = typesOfSchema({ type: have });
        const b = typesOfSchema({ type: v });
        const both = a.filter((t) => b.includes(t) || (t === 'integer' && b.includes('number')));
        const also = b.filter((t) => t === 'integer' && a.includes('number'));
        out.type = [...new Set([...both, ...also])];
      } else if (['minimum', 'minLength', 'minItems', 'minProperties', 'exclusiveMinimum'].includes(k))
        out[k] = Math.max(have as number, v as number);
      else if (['maximum', 'maxLength', 'maxItems', 'maxProperties', 'exclusiveMaximum'].includes(k))
        out[k] = Math.min(have as number, v as number);
      else if (SUBSCHEMAS.has(k) && have !== v) out[k] = { allOf: [have, v] };
      else if (k === 'oneOf' || k === 'anyOf' || k === 'pattern' || k === 'enum')
        out.allOf = [...((out.allOf as unknown[] | undefined) ?? []), { [k]: v }];
    }
  }
  return out;
}

/** The JSON type to generate: the first the schema allows (not null when another is allowed), else a guess. */
function typeOf(s: Json): string | undefined {
  const types = typesOfSchema(s);
  const chosen = types.find((t) => t !== 'null') ?? types[0];
  if (chosen) return chosen;
  if (isObject(s.properties) || s.required !== undefined || s.additionalProperties !== undefined)
    return 'object';
  if (s.items !== undefined || s.prefixItems !== undefined || s.minItems !== undefined) return 'array';
  if (s.minimum !== undefined || s.maximum !== undefined || s.multipleOf !== undefined) return 'number';
  return 'string';
}

/**
 * States a thing just made or in use is in, most believable first: of an enum of states, the value a client
 * expects of a new record (a silence `active`, not `expired`: a CLI hides expired ones), wherever it is listed.
 */
const LIVE = [
  'active',
  'enabled',
  'open',
  'available',
  'ready',
  'running',
  'online',
  'healthy',
  'ok',
  'pending',
  'new',
  'created',
  'queued',
  'unprocessed',
  'draft',
];

function liveState(pool: unknown[]): unknown {
  let best: unknown;
  let rank = LIVE.length;
  for (const e of pool) {
    const at = typeof e === 'string' ? LIVE.indexOf(e.toLowerCase()) : -1;
    if (at !== -1 && at < rank) [best, rank] = [e, at];
  }
  return best;
}

function gen(schema: unknown, walk: Walk, variant: number, depth: number): unknown {
  if (schema === false || depth > MAX_DEPTH) return undefined;
  if (!isObject(schema)) return 'string';
  const s = merged(schema);
  if (s.const !== undefined) return s.const;
  if (!walk.options.skipExamples)
    for (const given of [s.example, Array.isArray(s.examples) ? s.examples[0] : undefined, s.default])
      if (given !== undefined && given !== null && fits(given, schema)) return given;
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const ok = s.enum.filter((e) => fits(e, schema));
    const pool = ok.length > 0 ? ok : s.enum;
    return liveState(pool) ?? pool.find((e) => e !== null) ?? pool[0];
  }
  if (s.if !== undefined) return fromCondition(schema, s, walk, variant, depth);
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (branches && branches.length > 0) return fromBranches(schema, s, branches, walk, variant, depth);
  walk.stack.push(schema);
  try {
    return byType(s, typeOf(s), walk, variant, depth);
  } finally {
    walk.stack.pop();
  }
}

/**
 * The first branch (null last) whose value fits the whole schema; else, for a `oneOf`, a branch's value changed
 * to match that branch alone (./one-of.ts); else the first branch's value.
 */
function fromBranches(
  schema: Json,
  s: Json,
  branches: unknown[],
  walk: Walk,
  variant: number,
  depth: number,
): unknown {
  const rest: Json = { ...s };
  delete rest.oneOf;
  delete rest.anyOf;
  delete rest.discriminator;
  const order = [...branches].sort((a, b) => Number(isNull(a)) - Number(isNull(b)));
  const tried: Array<[unknown, unknown]> = [];
  for (const branch of order) {
    const candidate = gen({ allOf: [rest, branch] }, walk, variant, depth + 1);
    if (candidate === undefined) continue;
    if (fits(candidate, schema)) return candidate;
    tried.push([branch, candidate]);
  }
  if (Array.isArray(s.oneOf)) {
    const fuller = { ...walk, options: { ...walk.options, requiredOnly: false } };
    for (const [branch, value] of tried) {
      const fixed = exclusiveTo({
        value,
        branch: isObject(branch) ? merged(branch) : {},
        siblings: branches.filter((b) => b !== branch).map((b) => (isObject(b) ? merged(b) : b)),
        own: merged({ allOf: [rest, branch] }),
        merge: merged,
        s,
        schema,
        fuller: () => gen({ allOf: [rest, branch] }, fuller, variant, depth + 1),
      });
      if (fixed !== undefined) return fixed;
    }
  }
  return tried[0]?.[1];
}

/** `if`/`then`/`else`: a value of `then` that meets `if`, else one of `else` that does not, else the rest's. */
function fromCondition(schema: Json, s: Json, walk: Walk, variant: number, depth: number): unknown {
  const rest: Json = { ...s };
  delete rest.if;
  delete rest.then;
  delete rest.else;
  for (const [part, holds] of [
    [s.then, true],
    [s.else, false],
  ] as const) {
    const candidate = gen({ allOf: [rest, part ?? {}] }, walk, variant, depth + 1);
    if (candidate !== undefined && fits(candidate, s.if) === holds && fits(candidate, schema))
      return candidate;
  }
  return gen(rest, walk, variant, depth + 1);
}

const isNull = (b: unknown): boolean =>
  isObject(b) && typesOfSchema(b).every((t) => t === 'null') && 'type' in b;

function byType(s: Json, type: string | undefined, walk: Walk, variant: number, depth: number): unknown {
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return numberFor(s, type === 'integer', variant, inventionOf(walk, variant));
    case 'array':
      return arrayFor(s, walk, depth);
    case 'object':
      return objectFor(s, walk, depth);
    default:
      return stringFor(s, variant, inventionOf(walk, variant));
  }
}

/** In a cycle (a schema met again below itself) or deep down: only what the schema requires. */
const lean = (walk: Walk, depth: number): boolean =>
  walk.options.requiredOnly === true ||
  depth >= OPTIONAL_DEPTH ||
  walk.stack.slice(0, -1).includes(walk.stack[walk.stack.length - 1] as object);

function arrayFor(s: Json, walk: Walk, depth: number): unknown[] {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
  const count = Math.min(
    max,
    Math.max(min, lean(walk, depth) ? 0 : 1, prefix.length > 0 ? prefix.length : 0),
  );
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const item = i < prefix.length ? prefix[i] : s.items;
    if (item === false) break;
    const name = singular(walk.names[walk.names.length - 1] ?? 'item');
    const value = genNamed(item ?? {}, walk, s.uniqueItems === true ? i : 0, depth + 1, name);
    if (value === undefined) break;
    out.push(value);
  }
  return out;
}

function objectFor(s: Json, walk: Walk, depth: number): Json {
  const props = isObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const absent = new Set(Array.isArray(s[ABSENT_KEYWORD]) ? (s[ABSENT_KEYWORD] as string[]) : []);
  const optional = !lean(walk, depth);
  const out: Json = {};
  const extra = s.additionalProperties;
  for (const [name, p] of Object.entries(props)) {
    const hidden = walk.options.direction === 'request' ? 'readOnly' : 'writeOnly';
    if (absent.has(name) || (isObject(p) && p[hidden] === true && !required.has(name))) continue;
    if (!required.has(name) && !optional) continue;
    const value = genNamed(p, walk, 0, depth + 1, name);
    // An optional property no value of which was found (a pattern that cannot match) is better left out.
    if (value !== undefined && (required.has(name) || fits(value, p))) out[name] = value;
  }
  for (const name of required)
    if (!(name in out) && !absent.has(name)) {
      const schema = name in props ? props[name] : isObject(extra) ? extra : {};
      const value = genNamed(schema, walk, 0, depth + 1, name);
      if (value !== undefined) out[name] = value;
    }
  const least = typeof s.minProperties === 'number' ? s.minProperties : 0;
  for (let i = 1; Object.keys(out).length < least && extra !== false && i <= least; i++) {
    const value = genNamed(isObject(extra) ? extra : {}, walk, i, depth + 1, `property${i}`);
    if (value !== undefined) out[`property${i}`] = value;
  }
  const most = typeof s.maxProperties === 'number' ? s.maxProperties : Infinity;
  for (const name of Object.keys(out)) {
    if (Object.keys(out).length <= most) break;
    if (!required.has(name)) delete out[name];
  }
  return out;
}

/** A value valid against `schema` as far as ./schema-fits.ts can tell; `null` only when nothing else fits. */
export function sampleOf(schema: Schema | undefined, options: SampleOptions = {}): unknown {
  if (!schema) return null;
  const variant = options.variant ?? 0;
  const walkOf = (o: SampleOptions): Walk => ({
    options: o,
    stack: [],
    names: o.name === undefined ? [] : [o.name],
    nowMs: o.nowMs ?? Date.now(),
  });
  const value = gen(schema, walkOf(options), variant, 0);
  if (value !== undefined && (options.skipExamples || fits(value, schema))) return value;
  if (!options.skipExamples) {
    const again = gen(schema, walkOf({ ...options, skipExamples: true }), variant, 0);
    if (again !== undefined) return again;
  }
  return value === undefined ? null : value;
}

/**
 * Values generated from a schema where the document gives no example, valid by construction: formats, patterns
 * (randexp), lengths, bounds, enums, required properties at every depth, allOf merged, a oneOf/anyOf branch
 * that fits the whole schema, never `null` where the schema allows something else. Deterministic (answers are
 * stable from run to run), and a schema graph with cycles ends where only optional parts recur. Each candidate
 * is checked with ./schema-fits.ts; the caller checks a whole answer with the compiled validator.
 */
import RandExp from 'randexp';
import type { Schema } from './schema-shape';
import { ABSENT_KEYWORD } from './schema-views';
import { fits, formatFits, patternOf, typesOfSchema } from './schema-fits';
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
}

/** Optional properties are filled this deep; below it, and in a cycle, only what is required. */
const OPTIONAL_DEPTH = 5;
/** Nothing is generated below this depth (a cycle of required properties cannot be satisfied). */
const MAX_DEPTH = 24;

const FORMATS: Record<string, string> = {
  'date-time': '2019-08-24T14:15:22Z',
  'iso-date-time': '2019-08-24T14:15:22Z',
  date: '2019-08-24',
  time: '14:15:22Z',
  'iso-time': '14:15:22Z',
  duration: 'P3D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.168.0.1',
  ipv6: '2001:db8::1',
  uri: 'http://example.com',
  url: 'http://example.com',
  'uri-reference': '../dictionary',
  iri: 'http://example.com',
  'iri-reference': '../dictionary',
  'uri-template': 'http://example.com/{endpoint}',
  uuid: '095be615-a8ad-4c33-8e9c-c7612fbf6c9f',
  'json-pointer': '/json/pointer',
  'relative-json-pointer': '1/relative/json/pointer',
  regex: '/regex/',
  byte: 'U3dhZ2dlciByb2Nrcw==',
  password: 'pa$$word',
  binary: 'string',
};

/** The seeded source of randexp: the same pattern draws the same strings in every run. */
function seeded(seed: number): (lo: number, hi: number) => number {
  let s = seed >>> 0 || 1;
  return (lo, hi) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return lo + Math.floor((s / 2 ** 32) * (hi - lo + 1));
  };
}

/** A string the pattern (and the schema's lengths and format) accepts; undefined when none is found. */
function fromPattern(s: Json, pattern: string, variant: number): string | undefined {
  const re = patternOf(pattern);
  if (!re) return undefined;
  let gen: RandExp;
  try {
    gen = new RandExp(re);
  } catch {
    return undefined;
  }
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  gen.max = Math.max(4, Math.min(16, Number.isFinite(max) ? max : 16, min > 16 ? min : 16));
  gen.randInt = seeded(pattern.length * 7919 + variant * 104729 + 17);
  for (let i = 0; i < 40; i++) {
    let text: string;
    try {
      text = gen.gen();
    } catch {
      return undefined;
    }
    if (i >= 20) gen.max = Math.max(gen.max, min);
    if (stringOk(s, text)) return text;
  }
  return undefined;
}

const stringOk = (s: Json, text: string): boolean => fits(text, { ...s, type: 'string', enum: undefined });

/** A string of the schema's format, pattern and lengths. */
function stringFor(s: Json, variant: number): string {
  const format = typeof s.format === 'string' ? s.format : undefined;
  if (typeof s.pattern === 'string') {
    const text = fromPattern(s, s.pattern, variant);
    if (text !== undefined) return text;
  }
  let text = format && FORMATS[format] !== undefined ? FORMATS[format] : 'string';
  if (variant > 0) text = withVariant(text, format, variant);
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  if ([...text].length > max) text = [...text].slice(0, max).join('');
  while ([...text].length < min) text += 'string'.slice(0, min - [...text].length);
  if (format && !formatFits(format, text)) text = FORMATS[format] ?? text;
  return text;
}

/** A value distinct from the first for `uniqueItems` (a later day, another address, a number at the end). */
function withVariant(text: string, format: string | undefined, n: number): string {
  if (format === 'date-time' || format === 'date')
    return text.replace(/^2019-08-\d\d/, `2019-08-${String(1 + (n % 28)).padStart(2, '0')}`);
  if (format === 'uuid') return `${text.slice(0, -4)}${String(n % 10000).padStart(4, '0')}`;
  if (format === 'ipv4') return `192.168.0.${(n % 254) + 1}`;
  if (format === 'email') return `user${n}@example.com`;
  if (format === 'uri' || format === 'url') return `http://example.com/${n}`;
  return format && FORMATS[format] !== undefined ? text : `${text}${n}`;
}

function numberFor(s: Json, integer: boolean, variant: number): number {
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : integer ? 1 : 0;
  let lo = typeof s.minimum === 'number' ? s.minimum : -Infinity;
  let hi = typeof s.maximum === 'number' ? s.maximum : Infinity;
  const exLo = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined;
  const exHi = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : undefined;
  const nudge = step || 0.5;
  if (exLo !== undefined && exLo >= lo) lo = integer || step ? exLo + nudge : exLo + 0.5;
  if (exHi !== undefined && exHi <= hi) hi = integer || step ? exHi - nudge : exHi - 0.5;
  let v = lo > 0 ? lo : hi < 0 ? hi : 0;
  v += variant;
  if (v > hi) v = hi;
  if (integer) v = v >= 0 ? Math.ceil(v) : Math.floor(v);
  if (step) {
    v = Math.ceil(v / step) * step;
    if (v > hi) v = Math.floor(hi / step) * step;
  }
  return v;
}

interface Walk {
  options: SampleOptions;
  /** The schemas being generated now (a schema met again below itself is a cycle). */
  stack: object[];
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
    return pool.find((e) => e !== null) ?? pool[0];
  }
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (branches && branches.length > 0) return fromBranches(schema, s, branches, walk, variant, depth);
  walk.stack.push(schema);
  try {
    return byType(s, typeOf(s), walk, variant, depth);
  } finally {
    walk.stack.pop();
  }
}

/** The first branch (null last) whose value fits the whole schema, else the first branch's. */
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
  let first: unknown;
  for (const branch of order) {
    const candidate = gen({ allOf: [rest, branch] }, walk, variant, depth + 1);
    if (candidate === undefined) continue;
    if (fits(candidate, schema)) return candidate;
    if (first === undefined) first = candidate;
  }
  return first;
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
      return numberFor(s, type === 'integer', variant);
    case 'array':
      return arrayFor(s, walk, depth);
    case 'object':
      return objectFor(s, walk, depth);
    default:
      return stringFor(s, variant);
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
    const value = gen(item ?? {}, walk, s.uniqueItems === true ? i : 0, depth + 1);
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
    const value = gen(p, walk, 0, depth + 1);
    if (value !== undefined) out[name] = value;
  }
  for (const name of required)
    if (!(name in out) && !absent.has(name)) {
      const value = gen(name in props ? props[name] : isObject(extra) ? extra : {}, walk, 0, depth + 1);
      if (value !== undefined) out[name] = value;
    }
  const least = typeof s.minProperties === 'number' ? s.minProperties : 0;
  for (let i = 1; Object.keys(out).length < least && extra !== false && i <= least; i++) {
    const value = gen(isObject(extra) ? extra : {}, walk, i, depth + 1);
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
  const value = gen(schema, { options, stack: [] }, variant, 0);
  if (value !== undefined && (options.skipExamples || fits(value, schema))) return value;
  if (!options.skipExamples) {
    const again = gen(schema, { options: { ...options, skipExamples: true }, stack: [] }, variant, 0);
    if (again !== undefined) return again;
  }
  return value === undefined ? null : value;
}

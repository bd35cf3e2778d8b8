/**
 * Pure: what changed between two versions of one schema, classified for the side it is read on. A request
 * schema may not get stricter (a client's old request would be refused); a response schema may not get looser
 * (a client's old reader would meet a value it never saw). Both schemas are views already (compile.ts gives the
 * request view of a body, the response view of an answer), so readOnly and writeOnly are handled once.
 */
import { isObject } from '../json';
import type { Direction } from '../schema-views';

type Json = Record<string, unknown>;

/** One schema-level change: a stable kind, where (a pointer into the body), what. */
export interface SchemaChange {
  kind: string;
  breaking: boolean;
  where: string;
  message: string;
}

const show = (v: unknown) => JSON.stringify(v);
/** Deeper than this, a schema is compared no further (a generated document can nest without end). */
const MAX_DEPTH = 32;

function typesOf(s: Json): Set<string> | undefined {
  const t = s.type;
  if (typeof t === 'string') return new Set([t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === 'string'));
  return undefined;
}

/** `a` allows every value `b` allows (integer is a number). */
function covers(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  if (!a) return true;
  if (!b) return false;
  return [...b].every((t) => a.has(t) || (t === 'integer' && a.has('number')));
}

const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

interface Walk {
  dir: Direction;
  out: SchemaChange[];
  seen: Set<unknown>;
}

/** Every change from `before` to `after`, read on side `dir`; `where` prefixes each pointer. */
export function diffSchemas(before: unknown, after: unknown, dir: Direction, where = ''): SchemaChange[] {
  const walk: Walk = { dir, out: [], seen: new Set() };
  compare(walk, before, after, where, 0);
  return walk.out;
}

/** A narrowing breaks a request, a widening breaks a response. */
function push(w: Walk, change: 'narrowed' | 'widened', what: string, where: string, message: string): void {
  const breaking = (w.dir === 'request') === (change === 'narrowed');
  w.out.push({ kind: `${w.dir}.${what}.${change}`, breaking, where: where || '/', message });
}

/** `parts`: an allOf part, whose properties the merged object already compared. */
function compare(w: Walk, a: unknown, b: unknown, where: string, depth: number, parts = false): void {
  if (!isObject(a) || !isObject(b) || a === b || depth > MAX_DEPTH) {
    if (isObject(a) !== isObject(b) && depth <= MAX_DEPTH)
      push(w, isObject(a) ? 'widened' : 'narrowed', 'schema', where, 'the schema changed from any value');
    return;
  }
  // Cycles (and shared components met twice): each object is compared once.
  if (w.seen.has(a) && w.seen.has(b)) return;
  w.seen.add(a);
  w.seen.add(b);
  compareTypes(w, a, b, where);
  compareEnums(w, a, b, where);
  compareBounds(w, a, b, where);
  compareFormats(w, a, b, where);
  if (!parts) compareProperties(w, a, b, where, depth);
  if (a.items !== undefined || b.items !== undefined)
    compare(w, a.items ?? {}, b.items ?? {}, `${where}/items`, depth + 1);
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) compareLists(w, a, b, key, where, depth);
}

function compareTypes(w: Walk, a: Json, b: Json, where: string): void {
  const ta = typesOf(a);
  const tb = typesOf(b);
  const text = (t: Set<string> | undefined) => (t ? [...t].join(' | ') : 'any');
  if (!covers(tb, ta)) push(w, 'narrowed', 'type', where, `type ${text(ta)} became ${text(tb)}`);
  else if (!covers(ta, tb)) push(w, 'widened', 'type', where, `type ${text(ta)} became ${text(tb)}`);
}

function compareEnums(w: Walk, a: Json, b: Json, where: string): void {
  const ea = Array.isArray(a.enum) ? a.enum.map(show) : undefined;
  const eb = Array.isArray(b.enum) ? b.enum.map(show) : undefined;
  if (a.const !== undefined || b.const !== undefined) {
    if (show(a.const) !== show(b.const))
      push(w, b.const === undefined ? 'widened' : 'narrowed', 'enum', where, 'const changed');
  }
  if (!ea && !eb) return;
  if (!eb) return push(w, 'widened', 'enum', where, 'the enum was dropped: any value');
  if (!ea) return push(w, 'narrowed', 'enum', where, `values limited to ${eb.join(', ')}`);
  const removed = ea.filter((v) => !eb.includes(v));
  const added = eb.filter((v) => !ea.includes(v));
  if (removed.length) push(w, 'narrowed', 'enum', where, `enum value(s) ${removed.join(', ')} removed`);
  if (added.length) push(w, 'widened', 'enum', where, `enum value(s) ${added.join(', ')} added`);
}

function compareBounds(w: Walk, a: Json, b: Json, where: string): void {
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  for (const [keys, lower] of [
    [LOWER, true],
    [UPPER, false],
  ] as const) {
    for (const key of keys) {
      const x = num(a[key]);
      const y = num(b[key]);
      if (x === y) continue;
      const narrowed = x === undefined ? true : y === undefined ? false : lower ? y > x : y < x;
      push(
        w,
        narrowed ? 'narrowed' : 'widened',
        'bound',
        where,
        `${key} ${x ?? 'none'} became ${y ?? 'none'}`,
      );
    }
  }
  if (a.pattern !== b.pattern) {
    // A changed pattern may refuse old values and allow new ones: both sides break.
    if (b.pattern !== undefined) push(w, 'narrowed', 'pattern', where, `pattern ${show(b.pattern)} set`);
    if (a.pattern !== undefined) push(w, 'widened', 'pattern', where, `pattern ${show(a.pattern)} lifted`);
  }
}

function compareFormats(w: Walk, a: Json, b: Json, where: string): void {
  if (a.format === b.format) return;
  const text = `format ${show(a.format ?? 'none')} became ${show(b.format ?? 'none')}`;
  if (b.format !== undefined) push(w, 'narrowed', 'format', where, text);
  if (a.format !== undefined) push(w, 'widened', 'format', where, text);
}

function requiredOf(s: Json): Set<string> {
  const own = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
  const parts = Array.isArray(s.allOf) ? s.allOf.filter(isObject) : [];
  return new Set([...own, ...parts.flatMap((p) => [...requiredOf(p)])]);
}

function propertiesOf(s: Json): Map<string, unknown> {
  const out = new Map<string, unknown>(isObject(s.properties) ? Object.entries(s.properties) : []);
  for (const part of Array.isArray(s.allOf) ? s.allOf.filter(isObject) : [])
    for (const [k, v] of propertiesOf(part)) if (!out.has(k)) out.set(k, v);
  return out;
}

const closed = (s: Json) => s.additionalProperties === false || s.unevaluatedProperties === false;

function compareProperties(w: Walk, a: Json, b: Json, where: string, depth: number): void {
  const ra = requiredOf(a);
  const rb = requiredOf(b);
  // A readOnly property is not the request's, a writeOnly one not the response's.
  const flag = w.dir === 'request' ? 'readOnly' : 'writeOnly';
  const own = (props: Map<string, unknown>) =>
    new Map([...props].filter(([, p]) => !(isObject(p) && p[flag] === true)));
  const pa = own(propertiesOf(a));
  const pb = own(propertiesOf(b));
  const add = (kind: string, breaking: boolean, name: string, message: string) =>
    w.out.push({ kind: `${w.dir}.property.${kind}`, breaking, where: `${where}/${name}`, message });
  const request = w.dir === 'request';
  // Newly required: an old request lacks it (breaking); an answer now always has it (compatible).
  for (const name of rb) if (!ra.has(name)) add('required', request, name, `${name} is newly required`);
  // No longer required: a request may leave it out (compatible); an old reader may not find it (breaking).
  for (const name of ra) if (!rb.has(name)) add('optional', !request, name, `${name} is no longer required`);
  for (const [name, schema] of pa) {
    if (pb.has(name)) {
      compare(w, schema, pb.get(name), `${where}/${name}`, depth + 1);
      continue;
    }
    // A response property removed: a client that reads it finds nothing. On the request side it matters only
    // where the schema is closed (the server would refuse the property a client still sends).
    add(
      'removed',
      !request || closed(b),
      name,
      `${name} removed${request && closed(b) ? ' and no other property allowed' : ''}`,
    );
  }
  for (const name of pb.keys())
    if (!pa.has(name) && !rb.has(name))
      add(
        'added',
        !request && closed(a),
        name,
        `optional ${name} added${!request && closed(a) ? ' to a closed object' : ''}`,
      );
  if (!closed(a) && closed(b))
    push(w, 'narrowed', 'additional-properties', where, 'other properties no longer allowed');
  if (closed(a) && !closed(b))
    push(w, 'widened', 'additional-properties', where, 'other properties now allowed');
}

function compareLists(
  w: Walk,
  a: Json,
  b: Json,
  key: 'allOf' | 'oneOf' | 'anyOf',
  where: string,
  depth: number,
): void {
  const la = Array.isArray(a[key]) ? (a[key] as unknown[]) : [];
  const lb = Array.isArray(b[key]) ? (b[key] as unknown[]) : [];
  if (la.length === 0 && lb.length === 0) return;
  if (la.length === lb.length) {
    la.forEach((s, i) => compare(w, s, lb[i], `${where}/${key}/${i}`, depth + 1, key === 'allOf'));
    return;
  }
  // allOf parts add constraints; oneOf/anyOf branches add alternatives.
  const more = lb.length > la.length;
  const narrowed = key === 'allOf' ? more : !more;
  push(
    w,
    narrowed ? 'narrowed' : 'widened',
    key,
    where,
    `${key} went from ${la.length} to ${lb.length} schemas`,
  );
}

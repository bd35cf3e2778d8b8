/**
 * Pure: the two views OpenAPI gives every schema (3.1 §4.8.24.4 readOnly/writeOnly). The request view: readOnly
 * properties are not required (the server assigns them). The response view: writeOnly properties are not
 * required and never present (a custom keyword, `writeOnlyAbsent`, says which). Views are made once per schema
 * object (the dereferenced document shares and may loop), keep cycles, and are the schema itself when nothing in
 * it changes, so identity and sharing survive.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { isObject } from './json';
import { ONE_SCHEMA as SINGLE, SCHEMA_LIST, SCHEMA_MAP } from './schema-keywords';

export type Schema = OpenAPIV3_1.SchemaObject;
export type Direction = 'request' | 'response';
type Json = Record<string, unknown>;

/** The keyword the response view adds: properties a response must not carry. */
export const ABSENT_KEYWORD = 'writeOnlyAbsent';

const FLAG: Record<Direction, string> = { request: 'readOnly', response: 'writeOnly' };

/** Every sub-schema of `node`, one level down. */
function children(node: Json): Json[] {
  const out: Json[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (Array.isArray(value) && SCHEMA_LIST.has(key)) for (const v of value) if (isObject(v)) out.push(v);
    if (SINGLE.has(key) && isObject(value)) out.push(value);
    if (SCHEMA_MAP.has(key) && isObject(value))
      for (const v of Object.values(value)) if (isObject(v)) out.push(v);
  }
  return out;
}

/** Names of the properties flagged for `dir` in `node` and its allOf parts (readOnly or writeOnly). */
function hiddenNames(node: Json, dir: Direction, seen = new Set<Json>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(node)) return out;
  seen.add(node);
  if (isObject(node.properties)) {
    for (const [name, p] of Object.entries(node.properties))
      if (isObject(p) && p[FLAG[dir]] === true) out.add(name);
  }
  for (const part of Array.isArray(node.allOf) ? node.allOf : [])
    if (isObject(part)) for (const n of hiddenNames(part, dir, seen)) out.add(n);
  return out;
}

/** Names `node` (and its allOf parts) require. */
function requiredNames(node: Json, seen = new Set<Json>()): string[] {
  if (seen.has(node)) return [];
  seen.add(node);
  const own = Array.isArray(node.required) ? node.required.filter((r) => typeof r === 'string') : [];
  const parts = Array.isArray(node.allOf) ? node.allOf.filter(isObject) : [];
  return [...own, ...parts.flatMap((p) => requiredNames(p, seen))];
}

/** Component schema names by object, so a discriminator's mapping (`#/components/schemas/Cat`) finds its branch. */
const componentNames = new WeakMap<object, string>();

/** Remember the name of each component schema (called once per document, before any view is made). */
export function registerSchemaNames(schemas: Record<string, unknown> | undefined): void {
  for (const [name, schema] of Object.entries(schemas ?? {}))
    if (isObject(schema) && !componentNames.has(schema)) componentNames.set(schema, name);
}

/** The `oneOf`/`anyOf` a discriminator selects from, with its property name. */
function discriminated(node: Json): { key: 'oneOf' | 'anyOf'; property: string } | undefined {
  const d = node.discriminator;
  if (!isObject(d) || typeof d.propertyName !== 'string') return undefined;
  const key = Array.isArray(node.oneOf) ? 'oneOf' : Array.isArray(node.anyOf) ? 'anyOf' : undefined;
  return key ? { key, property: d.propertyName } : undefined;
}

/**
 * The discriminator values that select `branch` (OpenAPI §4.8.25): the mapping's keys that name it, else its
 * component name. Empty when neither is known.
 */
function valuesFor(node: Json, branch: unknown): string[] {
  const name = isObject(branch) ? componentNames.get(branch) : undefined;
  if (!name) return [];
  const mapping = isObject(node.discriminator) ? node.discriminator.mapping : undefined;
  const mapped = Object.entries(isObject(mapping) ? mapping : {})
    .filter(([, target]) => typeof target === 'string' && target.split('/').pop() === name)
    .map(([value]) => value);
  return mapped.length ? mapped : [name];
}

/** Does the view of `node` itself differ (not counting its sub-schemas)? */
function changesItself(node: Json, dir: Direction): boolean {
  if (discriminated(node)) return true;
  const hidden = hiddenNames(node, dir);
  if (hidden.size === 0) return false;
  return dir === 'response' || requiredNames(node).some((r) => hidden.has(r));
}

const views: Record<Direction, WeakMap<object, Json>> = { request: new WeakMap(), response: new WeakMap() };
/** Every object the response view made: exactly the schemas that forbid a property somewhere inside. */
const responseCopies = new WeakSet<object>();

/** Work out the view of every schema reachable from `root` at once (one walk per connected part). */
function build(root: Json, dir: Direction): void {
  const memo = views[dir];
  const nodes: Json[] = [];
  const parents = new Map<Json, Json[]>();
  const stack = [root];
  const seen = new Set<Json>([root]);
  while (stack.length) {
    const node = stack.pop() as Json;
    nodes.push(node);
    for (const child of children(node)) {
      const list = parents.get(child) ?? [];
      list.push(node);
      parents.set(child, list);
      if (!seen.has(child) && !memo.has(child)) {
        seen.add(child);
        stack.push(child);
      }
    }
  }
  // A node changes when it changes itself or a sub-schema's view changed (an already built one counts).
  const changed = new Set<Json>();
  const queue: Json[] = [];
  const mark = (n: Json): void => {
    if (changed.has(n) || !seen.has(n)) return;
    changed.add(n);
    queue.push(n);
  };
  for (const n of nodes) {
    if (changesItself(n, dir)) mark(n);
    else if (children(n).some((c) => memo.has(c) && memo.get(c) !== c)) mark(n);
  }
  while (queue.length) for (const p of parents.get(queue.pop() as Json) ?? []) mark(p);
  const copies = new Map<Json, Json>();
  for (const n of nodes) if (changed.has(n)) copies.set(n, {});
  if (dir === 'response') for (const copy of copies.values()) responseCopies.add(copy);
  const map = (v: unknown): unknown => (isObject(v) ? (copies.get(v) ?? (memo.has(v) ? memo.get(v) : v)) : v);
  for (const n of nodes) {
    const copy = copies.get(n);
    if (copy) Object.assign(copy, transform(n, dir, map));
    memo.set(n, copy ?? n);
  }
}

/** The view's own keywords of a changed node; sub-schemas go through `map`. */
function transform(node: Json, dir: Direction, map: (v: unknown) => unknown): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (Array.isArray(value) && SCHEMA_LIST.has(key)) out[key] = value.map(map);
    else if (SINGLE.has(key)) out[key] = map(value);
    else if (SCHEMA_MAP.has(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, map(v)]));
    else out[key] = value;
  }
  const chosen = discriminated(node);
  // Each branch holds only for its own discriminator values, so exactly one matches (as OpenAPI means it).
  if (chosen) {
    const originals = node[chosen.key] as unknown[];
    out[chosen.key] = (out[chosen.key] as unknown[]).map((branch, i) => {
      const values = valuesFor(node, originals[i]);
      if (values.length === 0) return branch;
      const select = {
        type: 'object',
        required: [chosen.property],
        properties: { [chosen.property]: { enum: values } },
      };
      return { allOf: [branch, select] };
    });
  }
  const hidden = hiddenNames(node, dir);
  if (hidden.size === 0) return out;
  if (Array.isArray(out.required)) {
    out.required = out.required.filter((r) => !hidden.has(r as string));
    if ((out.required as unknown[]).length === 0) delete out.required;
  }
  // A part of allOf may require what another part flags: the part is copied for this use only.
  if (Array.isArray(out.allOf)) out.allOf = out.allOf.map((p) => withoutRequired(p, hidden));
  if (dir === 'response') out[ABSENT_KEYWORD] = [...hidden].sort();
  return out;
}

function withoutRequired(part: unknown, hidden: Set<string>): unknown {
  if (!isObject(part)) return part;
  const required = Array.isArray(part.required) ? part.required : [];
  const nested = Array.isArray(part.allOf) ? part.allOf : [];
  if (!required.some((r) => hidden.has(r as string)) && nested.length === 0) return part;
  const copy: Json = { ...part };
  if (responseCopies.has(part)) responseCopies.add(copy);
  if (required.length) copy.required = required.filter((r) => !hidden.has(r as string));
  if ((copy.required as unknown[] | undefined)?.length === 0) delete copy.required;
  if (nested.length) copy.allOf = nested.map((p) => withoutRequired(p, hidden));
  return copy;
}

function viewOf<T>(schema: T, dir: Direction): T {
  if (!isObject(schema)) return schema;
  const memo = views[dir];
  if (!memo.has(schema)) build(schema, dir);
  return memo.get(schema) as T;
}

/** The schema as a request body must satisfy it: readOnly properties are not required. */
export function requestView<T>(schema: T): T {
  return viewOf(schema, 'request');
}

/** The schema as a response must satisfy it: writeOnly properties are not required and never present. */
export function responseView<T>(schema: T): T {
  return viewOf(schema, 'response');
}

/**
 * `value` without the properties the response view `schema` says are never present (a stored writeOnly
 * password is not sent back); the value itself when the schema has none. Follows properties, items, additional
 * properties and every branch of allOf, oneOf and anyOf.
 */
export function withoutWriteOnly(schema: unknown, value: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 32 || !hasAbsent(schema)) return value;
  if (Array.isArray(value)) {
    const items = schema.items;
    return isObject(items) ? value.map((v) => withoutWriteOnly(items, v, depth + 1)) : value;
  }
  if (!isObject(value)) return value;
  let out: Json = value;
  const copy = (): Json => (out === value ? (out = { ...value }) : out);
  const absent = schema[ABSENT_KEYWORD];
  if (Array.isArray(absent)) for (const name of absent) if (name in out) delete copy()[name as string];
  const props = isObject(schema.properties) ? schema.properties : {};
  for (const [name, p] of Object.entries(props)) {
    if (!(name in out)) continue;
    const inner = withoutWriteOnly(p, out[name], depth + 1);
    if (inner !== out[name]) copy()[name] = inner;
  }
  if (isObject(schema.additionalProperties)) {
    for (const name of Object.keys(out)) {
      if (name in props) continue;
      const inner = withoutWriteOnly(schema.additionalProperties, out[name], depth + 1);
      if (inner !== out[name]) copy()[name] = inner;
    }
  }
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const parts = schema[key];
    if (Array.isArray(parts)) for (const part of parts) out = withoutWriteOnly(part, out, depth + 1) as Json;
  }
  return out;
}

/** Does the response view `schema` (or a sub-schema) forbid any property? */
function hasAbsent(schema: Json): boolean {
  return responseCopies.has(schema);
}

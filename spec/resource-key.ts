/**
 * Pure: which field of an item a path parameter names, and a record's key read through those fields. The key
 * is a JSON pointer, not only a top-level property: `{name}` is `/metadata/name` where the item has no `name` of
 * its own (a cluster-style object), `{owner}` is `/owner/login` where `owner` is an object, `{workspace_gid}` is
 * `/workspace/gid`. An item path with two parameters of its own (`/repos/{owner}/{repo}`) has a composite key.
 */
import { isObject } from './json';
import type { KeyPart, Resource } from './resource-types';
import { arrayItems, objectShape, typesOf, type ObjectShape, type Schema } from './schema-shape';

export type { KeyPart } from './resource-types';

/** Each pointer's reference tokens, unescaped, read once: the key pointers come from the document. */
const tokensByPointer = new Map<string, readonly string[]>();
/** Pointers from elsewhere (a JSON Patch's paths) are read each time once this many are kept. */
const MAX_POINTERS = 1000;

function tokensOf(pointer: string): readonly string[] {
  let tokens = tokensByPointer.get(pointer);
  if (tokens) return tokens;
  tokens = pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (tokensByPointer.size < MAX_POINTERS) tokensByPointer.set(pointer, tokens);
  return tokens;
}

/** RFC 6901: the value at `pointer` in `value` (`/metadata/name`), or undefined. */
export function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let at: unknown = value;
  for (const key of tokensOf(pointer)) {
    if (Array.isArray(at) && /^\d+$/.test(key)) at = at[Number(key)];
    else if (isObject(at)) at = at[key];
    else return undefined;
  }
  return at;
}

/** A scalar (not an object, not a list): what a path segment can name. */
export const isScalar = (p: unknown): boolean =>
  !typesOf(p as Schema).some((t) => t === 'object' || t === 'array') && !objectShape(p) && !arrayItems(p);

/** Objects whose fields name the item they sit in (a cluster-style object's `metadata`, JSON:API's `attributes`). */
const CONTAINERS = ['metadata', 'meta', 'attributes'];
/** The fields of an object property that say which one it is, best first (`owner` -> `owner.login`). */
const NAMING = ['login', 'name', 'slug', 'username', 'handle', 'key', 'gid', 'id', 'uid', 'uuid'];

/** `issue_number` -> [issue, number]; `workspaceGid` -> [workspace, gid]; `widgetID` -> [widget, id]. */
export const wordsOf = (name: string): string[] =>
  name
    .split(/_|-|(?<=[a-z0-9])(?=[A-Z])/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());

const at = (...names: string[]): string =>
  names.map((n) => `/${n.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The scalar property of `shape` named `name`, or named so but for its case (Docker's `Name`). */
function scalarNamed(shape: ObjectShape | null, name: string): string | undefined {
  if (!shape) return undefined;
  const p = shape.properties[name];
  if (p !== undefined && isScalar(p)) return name;
  const same = Object.keys(shape.properties).filter(
    (k) => k.toLowerCase() === name.toLowerCase() && isScalar(shape.properties[k]),
  );
  return same.length === 1 ? same[0] : undefined;
}

/**
 * The nested field a parameter names, or undefined: a field of a container (`/metadata/name`), the naming
 * field of an object property the parameter names (`{owner}` -> `/owner/login`), or one the parameter's words
 * spell (`{workspace_gid}` -> `/workspace/gid`).
 */
export function nestedPointer(shape: ObjectShape, param: string): string | undefined {
  for (const c of CONTAINERS) {
    const inner = shape.properties[c] === undefined ? null : objectShape(shape.properties[c]);
    const name = scalarNamed(inner, param);
    if (name) return at(c, name);
  }
  const object = shape.properties[param] === undefined ? null : objectShape(shape.properties[param]);
  const naming = NAMING.map((n) => scalarNamed(object, n)).find((n) => n !== undefined);
  if (naming) return at(param, naming);
  const words = wordsOf(param);
  const last = words.pop();
  const head = words.join('_');
  if (!head || !last) return undefined;
  const owner = Object.keys(shape.properties).find(
    (k) => k.toLowerCase().replace(/[_-]/g, '') === head.replace(/_/g, ''),
  );
  const inner = owner === undefined ? null : objectShape(shape.properties[owner]);
  const name = scalarNamed(inner, last);
  return owner && name ? at(owner, name) : undefined;
}

/**
 * The field of an item that names its parent, as a path parameter of the collection names it: `{namespace}`
 * -> `/metadata/namespace`, `{workspace_gid}` -> `/workspace/gid`, `{userId}` -> `/userId` (or `/user_id`).
 */
export function parentField(item: Schema, param: string): string | undefined {
  const shape = objectShape(item);
  if (!shape) return undefined;
  const words = wordsOf(param);
  const spellings = [param, words.join('_'), words.join('')];
  for (const s of spellings) {
    const name = scalarNamed(shape, s);
    if (name) return at(name);
  }
  return nestedPointer(shape, param);
}

/** A path parameter whose value is a number (`{issue_number}: integer`), or a pattern of digits. */
export const numericParam = (schema: Schema | undefined): boolean =>
  typesOf(schema).some((t) => t === 'integer' || t === 'number') ||
  /^\^?\\d|^\^?\[0-9\]/.test(String((schema as { pattern?: unknown } | undefined)?.pattern ?? ''));

/**
 * Where the item's id is integer but its path parameter is a name (`{repo}` is "the repository's name"): the
 * item's naming string field instead (`name`, `slug`, `login`), if it has one.
 */
export function namingInstead(shape: ObjectShape, paramSchema: Schema | undefined): string | undefined {
  if (paramSchema === undefined || numericParam(paramSchema)) return undefined;
  return ['name', 'slug', 'login', 'key'].find((n) => typesOf(shape.properties[n]).includes('string'));
}

/** The key's parts, a top-level `idField` read as one part. */
export function keyParts(r: Pick<Resource, 'key' | 'idField' | 'itemParam'>): KeyPart[] {
  if (r.key) return r.key;
  if (!r.idField) return [];
  // Asked for every create and read: the one part is made once per resource (whose fields do not change).
  const made = idParts.get(r);
  if (made && made.idField === r.idField && made.itemParam === r.itemParam) return made.parts;
  const parts = [{ pointer: at(r.idField), param: r.itemParam ?? r.idField }];
  idParts.set(r, { idField: r.idField, itemParam: r.itemParam, parts });
  return parts;
}
const idParts = new WeakMap<object, { idField: string; itemParam?: string; parts: KeyPart[] }>();

/** Composite parts are joined by `/`, each encoded, so `a/b` + `c` and `a` + `b/c` stay apart. */
const joinParts = (values: readonly string[]): string =>
  values.length === 1 ? (values[0] as string) : values.map(encodeURIComponent).join('/');

/** The key a record is kept by: the values at the key's pointers, or undefined when one is missing. */
export function recordKey(
  r: Pick<Resource, 'key' | 'idField' | 'itemParam'>,
  item: unknown,
): string | undefined {
  const values: string[] = [];
  for (const part of keyParts(r)) {
    const v = valueAt(item, part.pointer);
    if (typeof v !== 'string' && typeof v !== 'number') return undefined;
    values.push(String(v));
  }
  return values.length ? joinParts(values) : undefined;
}

/** The key a path addresses: the values of the key's parameters, read by name. */
export function keyOfParams(
  r: Pick<Resource, 'key' | 'idField' | 'itemParam'>,
  params: Record<string, string>,
): string {
  return joinParts(keyParts(r).map((p) => params[p.param] ?? ''));
}

/** `item` with `value` at `pointer` (objects on the way made or copied; the rest shared). */
export function setAt(
  item: Record<string, unknown>,
  pointer: string,
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = pointer.slice(1).split('/');
  if (head === undefined) return item;
  const key = head.replace(/~1/g, '/').replace(/~0/g, '~');
  if (rest.length === 0) return { ...item, [key]: value };
  const inner = isObject(item[key]) ? (item[key] as Record<string, unknown>) : {};
  return { ...item, [key]: setAt(inner, `/${rest.join('/')}`, value) };
}

/** The item path's parameters for a key `recordKey` made (`hubber/tools` -> `{ owner: hubber, repo: tools }`). */
export function keyParams(
  r: Pick<Resource, 'key' | 'idField' | 'itemParam'>,
  key: string,
): Record<string, string> {
  const parts = keyParts(r);
  if (parts.length === 1) return { [parts[0]?.param ?? '']: key };
  const values = key.split('/').map((v) => decodeURIComponent(v));
  return Object.fromEntries(parts.map((p, i) => [p.param, values[i] ?? '']));
}

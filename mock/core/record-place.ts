/**
 * Where a resource's record is kept, as the request's path names it: the store bucket (one per parent, for a
 * resource kept per the collection path's parameters: `gadgets/default`) and the key within it (the item path's
 * parameter, or the composite key `owner/name` of `/repos/{owner}/{repo}`). spec/resource-key.ts reads keys.
 */
import type { Binding, Resource } from '../../spec/resources';
import { isParam, paramAt, paramName, segments, skeleton } from '../../spec/resource-paths';
import { keyOfParams, keyParts, recordKey, setAt } from '../../spec/resource-key';
import { valueAt } from '../../spec/created-id';
import { schemaAt } from '../../spec/resource-id';
import { sampleOf } from '../../spec/sample';
import type { PathField } from '../../spec/resource-types';
import type { Ctx } from './context';
import type { JsonObject, StoreResource } from './stores/types';
import { KEY_FIELD } from './records';

/** The value of the parameter at `depth` of the request's path template. */
const paramValue = (ctx: Ctx, depth: number): string => {
  const name = ctx.operation ? paramAt(ctx.operation.path, depth) : undefined;
  return (name && ctx.params?.[name]) || '';
};

/** Is the request's path under the resource's collection path (parameter names aside)? */
const underCollection = (ctx: Ctx, r: Resource): boolean =>
  ctx.operation !== undefined &&
  `${skeleton(ctx.operation.path)}/`.startsWith(`${skeleton(r.collectionPath)}/`);

/** The bucket of the resource's records the path names: its name, and its parents' values where kept per parent. */
export function bucketOf(ctx: Ctx, r: Resource): string {
  if (!r.scope || !underCollection(ctx, r)) return r.name;
  return `${r.name}/${r.scope.map((d) => encodeURIComponent(paramValue(ctx, d))).join('/')}`;
}

/** What the store knows of the resource in that bucket. */
export const storeRef = (r: Resource, bucket: string = r.name): StoreResource => ({
  name: bucket,
  idField: r.key ? KEY_FIELD : r.idField,
  idType: r.key && r.key.length > 1 ? 'string' : r.idType,
  idForm: r.idForm,
});

/** The depth of each key parameter in the resource's item path. */
function keyDepths(r: Resource): number[] {
  const segs = r.itemPath ? segments(r.itemPath) : [];
  return keyParts(r).map((p) => segs.findIndex((s) => isParam(s) && paramName(s) === p.param));
}

/**
 * The names, in the operation's own path, of the parameters that give each key part (undefined where the path has
 * none at that depth): worked out once per resource and path, not per request.
 */
const keyNames = new WeakMap<
  Resource,
  { parts: readonly unknown[]; byPath: Map<string, Array<string | undefined>> }
>();
function keyNamesIn(r: Resource, path: string): Array<string | undefined> {
  const parts = keyParts(r);
  let known = keyNames.get(r);
  if (known?.parts !== parts) keyNames.set(r, (known = { parts, byPath: new Map() }));
  let names = known.byPath.get(path);
  if (!names) {
    names = keyDepths(r).map((depth) => (depth < 0 ? undefined : paramAt(path, depth)));
    known.byPath.set(path, names);
  }
  return names;
}

/** The item key the path names, as the store keys it (`007` addresses integer id 7). */
export function itemKey(ctx: Ctx, r: Resource): string {
  const params: Record<string, string> = {};
  const parts = keyParts(r);
  const names = ctx.operation ? keyNamesIn(r, ctx.operation.path) : [];
  parts.forEach((part, i) => {
    const name = names[i];
    params[part.param] = (name && ctx.params?.[name]) || '';
  });
  const raw = keyOfParams(r, params);
  return r.idType === 'integer' && parts.length === 1 && /^\d+$/.test(raw) ? String(Number(raw)) : raw;
}

/**
 * The parent's bucket and key where the resource lives under another's item and the path is under that item;
 * undefined otherwise (an item path elsewhere, `/projects/{project_gid}`, names no parent).
 */
export function parentPlace(
  ctx: Ctx,
  r: Resource,
  resources: readonly Resource[],
): { resource: Resource; bucket: string; key: string } | undefined {
  const parent = r.parent && resources.find((p) => p.name === r.parent?.name);
  if (!parent?.itemPath || !ctx.operation) return undefined;
  if (!`${skeleton(ctx.operation.path)}/`.startsWith(`${skeleton(parent.itemPath)}/`)) return undefined;
  return { resource: parent, bucket: bucketOf(ctx, parent), key: itemKey(ctx, parent) };
}

/** What a record kept apart by its parent (not in a bucket of its own) carries: the parent's bucket and key. */
export const parentTag = (place: { bucket: string; key: string }): string =>
  `${place.bucket}/${encodeURIComponent(place.key)}`;

/**
 * Which parent tags the path names: its one parent's (`issues/acme/tool/1`), every parent's under the parent's own
 * parents where the path names only those (`/repos/{owner}/{repo}/issues/comments`: `issues/acme/tool/…`), or
 * any (undefined) where it names none.
 */
export function parentTagTest(
  ctx: Ctx,
  r: Resource,
  resources: readonly Resource[],
): ((tag: unknown) => boolean) | undefined {
  const place = parentPlace(ctx, r, resources);
  if (place) {
    const tag = parentTag(place);
    return (t) => t === tag;
  }
  const parent = resources.find((p) => p.name === r.parent?.name);
  if (!parent?.scope || !underCollection(ctx, parent)) return undefined;
  const prefix = `${bucketOf(ctx, parent)}/`;
  return (t) => typeof t === 'string' && t.startsWith(prefix);
}

/**
 * The bucket, or the prefix of the buckets, of a resource kept per parent that the path names as far as it names
 * its parents (`comments/acme/tool` for `/repos/{owner}/{repo}/issues/comments` of items kept per issue).
 */
export function bucketPrefix(ctx: Ctx, r: Resource): string {
  if (!r.scope || !ctx.operation) return r.name;
  const mine = segments(ctx.operation.path);
  const theirs = segments(r.collectionPath);
  const values: string[] = [];
  for (const depth of r.scope) {
    const agree = theirs.slice(0, depth + 1).every((s, i) => {
      const m = mine[i];
      return m !== undefined && (isParam(s) ? isParam(m) : s === m);
    });
    if (!agree) break;
    values.push(encodeURIComponent(paramValue(ctx, depth)));
  }
  return [r.name, ...values].join('/');
}

/** The fields the path sets on a new record (`/metadata/namespace` from `{namespace}`). */
export function withPathFields(
  ctx: Ctx,
  record: JsonObject,
  fields: readonly PathField[] | undefined,
): JsonObject {
  let out = record;
  for (const f of fields ?? []) {
    const v = paramValue(ctx, f.depth);
    if (v) out = setAt(out, f.pointer, v);
  }
  return out;
}

/** A replaced record keeps the fields its item path sets (`/metadata/namespace` from `{namespace}`), as a create's. */
export function withItemPathFields(ctx: Ctx, record: JsonObject, r: Resource): JsonObject {
  return r.pathFields?.length && underCollection(ctx, r) ? withPathFields(ctx, record, r.pathFields) : record;
}

/** Does a record carry the path's values in the fields a list of another path filters on? */
export function matchesFields(ctx: Ctx, binding: Binding, record: JsonObject): boolean {
  if (!binding.fields?.length || binding.action !== 'list' || binding.resource.scope) return true;
  return binding.fields.every((f) => {
    const at = valueAt(record, f.pointer);
    return at !== undefined && String(at) === paramValue(ctx, f.depth);
  });
}

/**
 * A composite key's leading parts that neither the body nor the path gave (the owner of a repository created at
 * `/user/repos`: the caller itself): one invented value for every record, as one caller owns them all. The last
 * part, the item's own name, is the client's to send.
 */
export function withOwnerParts(r: Resource, record: JsonObject): JsonObject {
  let out = record;
  for (const part of (r.key ?? []).slice(0, -1)) {
    if (valueAt(out, part.pointer) !== undefined) continue;
    const schema = schemaAt(r.itemSchema, part.pointer) ?? { type: 'string' };
    const value = sampleOf(schema, { name: part.pointer.split('/').pop() });
    if (typeof value === 'string' || typeof value === 'number') out = setAt(out, part.pointer, value);
  }
  return out;
}

/** A record with its nested or composite key kept in `$key`; undefined when a part of the key is missing. */
export function withRecordKey(r: Resource, record: JsonObject): JsonObject | undefined {
  if (!r.key) return record;
  const key = recordKey(r, record);
  return key === undefined ? undefined : { ...record, [KEY_FIELD]: key };
}

/** A replaced or patched record keeps its key: the fields the key is read from are the old record's. */
export function keepKey(r: Resource, next: JsonObject, old: JsonObject): JsonObject {
  let out = next;
  for (const part of r.key ?? []) {
    const was = valueAt(old, part.pointer);
    if (was !== undefined) out = setAt(out, part.pointer, was);
  }
  return out;
}

/** The values that fill the item path for a record (its key's parameters), or undefined when one is missing. */
export function keyParams(r: Resource, record: JsonObject): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const part of keyParts(r)) {
    const v = valueAt(record, part.pointer);
    if (typeof v !== 'string' && typeof v !== 'number') return undefined;
    out[part.param] = String(v);
  }
  return out;
}

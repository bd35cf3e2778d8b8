/**
 * Pure: compiled document -> its stateful resources. One inference shared by the mock (state) and the runner
 * (generated lifecycle rules). Conventions (docs/mock-your-api.md, "Bring your own spec"):
 * - a collection path (`/books`): `post` creates, `get` lists, `put` with the id in the body updates, `query`
 *   (OpenAPI 3.2's QUERY) searches: the items whose properties equal the body's;
 * - its item path (`/books/{bookId}`): `get` reads, `put` replaces, `patch` merges (RFC 7396), `delete` removes;
 * - the id: an `x-mock` override, else the item schema's one readOnly property, else the property named like the
 *   item path parameter, else `id`, else the property the response requires and the request body lacks;
 * - `x-mock` on a path or an operation overrides: `{ resource, action, id }`, or `examples` to opt out;
 * - every other operation answers from its examples (or its schema).
 */
import { isObject } from './json';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { CompiledSpec, OperationSpec } from './compile';
import { envelopeOfCreate, innerSchema, singular, unwrap } from './envelope';
import { describeIdForm, idFormOf } from './id-form';
import { isJsonPatch } from './json-patch';
import { itemScopes, type ItemScope } from './item-scope';
import type { Action, PathField, Resource } from './resource-types';
import { unsatisfiableAnswers } from './satisfiable';
import {
  collectionKeyOf,
  isParam,
  itemDepth,
  itemSkeleton,
  paramAt,
  paramName,
  plural,
  segments,
  skeleton,
} from './resource-paths';
import { successResponses, successSchema } from './success';
import { createdIdAt, pointerTo } from './created-id';
import {
  aliasBindings,
  aliasHome,
  fieldsOf,
  joinItemPaths,
  ownParams,
  sameJson,
  type Candidate,
} from './resource-join';
import { keyDecision, schemaAt } from './resource-id';
import { derivedKeyOf } from './derived-key';
import { serverMade } from './server-made';
import {
  arrayItems,
  objectShape,
  readOnlyProperties,
  typesOf,
  type ObjectShape,
  type Schema,
} from './schema-shape';

export type { Action, CollectionAction, ItemAction, Resource } from './resource-types';

const ACTIONS: readonly Action[] = [
  'create',
  'list',
  'update',
  'search',
  'read',
  'replace',
  'patch',
  'remove',
];

export interface Binding {
  resource: Resource;
  action: Action;
  /**
   * Another path of the resource's items (spec/resource-join.ts): a create there sets these fields from the
   * path, a list there shows the items whose fields equal the path's values (`/workspaces/{workspace_gid}/projects`).
   */
  fields?: PathField[];
  /** A list of every parent's items (`/gadgets` beside `/namespaces/{namespace}/gadgets`). */
  everywhere?: boolean;
}

export interface ResourceModel {
  resources: Resource[];
  /** operationId -> resource and action; operations absent here answer from examples. */
  byOperation: Map<string, Binding>;
  /** operationId -> the item an operation under an item path addresses (no action of its own; issue 26.2, 26.5). */
  itemScopes: Map<string, ItemScope>;
  /**
   * Decisions the document did not spell out and the engine settled (a resource named by its path, an operation
   * served from the document because it could not be settled), one line each, printed once at start.
   */
  notes?: string[];
}

export type ResourcesResult = { ok: true; model: ResourceModel } | { ok: false; error: string };

interface XMock {
  resource?: string;
  /** On an item path: the collection path it belongs to (`/widgets` for `/widget/{widgetID}`). */
  collection?: string;
  action?: Action;
  /** The key: a property, a JSON pointer (`/metadata/name`), or one pointer per item path parameter. */
  id?: string | string[];
  /** On a sub-collection: whether a parent nobody created is a 404 (`true`) or only a label (`false`). */
  parent?: boolean;
  examples?: boolean;
}

/** Read an `x-mock` value: `examples`/`false` opts out; an object overrides resource, action or id. */
function readXMock(raw: unknown, where: string): XMock | string {
  if (raw === undefined) return {};
  if (raw === 'examples' || raw === false) return { examples: true };
  if (!isObject(raw)) return `${where}: x-mock must be "examples", false or an object`;
  const out: XMock = {};
  if (raw.resource !== undefined) {
    if (typeof raw.resource !== 'string' || !raw.resource) return `${where}: x-mock.resource must be a name`;
    out.resource = raw.resource;
  }
  if (raw.action !== undefined) {
    if (raw.action === 'examples') out.examples = true;
    else if (!ACTIONS.includes(raw.action as Action))
      return `${where}: x-mock.action must be one of ${ACTIONS.join(', ')} or examples`;
    else out.action = raw.action as Action;
  }
  if (raw.collection !== undefined) {
    if (typeof raw.collection !== 'string' || !raw.collection.startsWith('/'))
      return `${where}: x-mock.collection must be a collection path (/widgets)`;
    out.collection = raw.collection;
  }
  if (raw.id !== undefined) {
    const ids: unknown[] = Array.isArray(raw.id) ? raw.id : [raw.id];
    const pointers = ids.length > 1 || String(ids[0]).slice(1).includes('/');
    if (ids.length === 0 || ids.some((i) => typeof i !== 'string' || !i || (pointers && !i.startsWith('/'))))
      return `${where}: x-mock.id must be a property name, a JSON pointer (/metadata/name) or a list of pointers`;
    out.id = raw.id as string | string[];
  }
  if (raw.parent !== undefined) {
    if (typeof raw.parent !== 'boolean') return `${where}: x-mock.parent must be true or false`;
    out.parent = raw.parent;
  }
  return out;
}

/** The default action of `method` on a collection or an item path. */
function conventionalAction(method: string, onItem: boolean): Action | undefined {
  if (onItem) return ({ get: 'read', put: 'replace', patch: 'patch', delete: 'remove' } as const)[method];
  return ({ post: 'create', get: 'list', put: 'update', query: 'search' } as const)[method];
}

/** Infer every resource of `spec`; a conflicting or malformed `x-mock` is an error naming its path. */
export function inferResources(spec: CompiledSpec): ResourcesResult {
  const paths = (spec.document.paths ?? {}) as Record<string, OpenAPIV3_1.PathItemObject | undefined>;
  const collectionPaths = collectionsOf(Object.keys(paths));
  const homes = itemHomesOf(Object.keys(paths));
  const keys = collectionKeys(paths);
  const candidates = new Map<string, Candidate>();
  const candidate = (key: string, collectionPath: string, documented: boolean): Candidate => {
    let c = candidates.get(key);
    if (!c) candidates.set(key, (c = { collectionPath, ops: new Map(), posts: [] }));
    if (documented && !c.documented) Object.assign(c, { collectionPath, documented });
    return c;
  };
  const notes: string[] = [];
  const strays: Candidate[] = [];
  for (const op of spec.operations) {
    const where = `${op.method.toUpperCase()} ${op.path}`;
    const pathX = readXMock((paths[op.path] as Record<string, unknown> | undefined)?.['x-mock'], op.path);
    const opX = readXMock(op.extensions['x-mock'], where);
    if (typeof pathX === 'string') return { ok: false, error: pathX };
    if (typeof opX === 'string') return { ok: false, error: opX };
    const x: XMock = { ...pathX, ...opX };
    if (x.examples) continue;
    const segs = segments(op.path);
    const last = segs[segs.length - 1];
    const onItem = last !== undefined && isParam(last);
    // Docker's `POST /volumes/create`: a create named by a verb under its collection is that collection's create.
    const createdUnder = !onItem && op.method === 'post' && createVerbParent(segs, collectionPaths);
    // `/repos/{owner}/{repo}`: an item path with two parameters of its own (a composite key) under `/repos`.
    const own = onItem ? Math.max(1, ownParams(op.path).length) : 0;
    const collectionPath =
      onItem || createdUnder ? `/${segs.slice(0, -Math.max(own, 1)).join('/')}` : op.path;
    // The collection an item path belongs to: x-mock's, else the one its skeleton and number name.
    const key = onItem
      ? ((x.collection && skeleton(x.collection)) ??
        (x.resource && keys.byName.get(x.resource)) ??
        (own > 1 ? skeleton(collectionPath) : collectionKeyOf(op.path, keys.documented)))
      : skeleton(collectionPath);
    // A nested collection (`/articles/{slug}/comments`) is a sub-collection of the item above it when that item
    // is a resource's (settled below, once every resource is known); a verb (`/schedules/{id}/deactivate`) never.
    const nested = segments(collectionPath).some(isParam);
    // An item path elsewhere (`/repos/{owner}/{repo}/issues/comments/{comment_id}` of the comments created under
    // an issue) stays a candidate: joined to its create below, else dropped with the parentless ones.
    if (nested && !x.resource && !isSubCollection(collectionPath) && !onItem) {
      // A list there may still list a resource's items under their parents' parents (resource-join.ts).
      if (op.method === 'get' && !x.action)
        strays.push({ collectionPath, ops: new Map([['list', op]]), posts: [] });
      continue;
    }
    // A path that acts on a collection (`/user/createWithList`, `/pet/findByStatus`, `/files:upload`) is no
    // resource of its own: it answers from examples or its schema, unless x-mock says otherwise.
    if (
      !nested &&
      !onItem &&
      !createdUnder &&
      !x.resource &&
      !x.action &&
      isActionPath(op.path, collectionPaths, homes)
    )
      continue;
    if (collectionPath === '/' || collectionPath === '') continue;
    const action = x.action ?? conventionalAction(op.method, onItem);
    if (!action && !(onItem && op.method === 'post')) continue;
    const c = candidate(key, collectionPath, !onItem);
    // `/users/{userId}` beside `/users/{id}` is the same item path unless both say the same thing.
    const otherItemPath =
      c.itemPath !== undefined &&
      c.itemPath !== op.path &&
      (skeleton(c.itemPath) !== skeleton(op.path) || (action !== undefined && c.ops.has(action)));
    if (onItem && otherItemPath) {
      // `/countries/{code3}` beside `/countries/{code2}`: the first addresses the stored items.
      notes.push(
        `${where}: a second item path of ${collectionPath} (beside ${c.itemPath}), served from the document`,
      );
      continue;
    }
    if (onItem) c.itemPath ??= op.path;
    if (!action) {
      c.posts.push({ op, summary: proseOf(paths, op) });
      continue;
    }
    if (x.resource) {
      if (c.name && c.name !== x.resource)
        return { ok: false, error: `${op.path}: x-mock names ${x.resource}, the path is already ${c.name}` };
      c.name = x.resource;
    }
    if (x.id) c.idOverride = x.id;
    if (x.parent !== undefined) c.parentRequired = x.parent;
    const taken = c.ops.get(action);
    if (taken) {
      notes.push(
        `${where}: ${action} of ${collectionPath} is already ${taken.method.toUpperCase()} ${taken.path}, served from the document (x-mock.action says otherwise)`,
      );
      continue;
    }
    c.ops.set(action, op);
    if (action === 'create' && UPSERT_WORDS.test(`${op.operationId} ${proseOf(paths, op)}`)) c.upsert = true;
  }
  const itemOf = (c: Candidate) => itemSchemaOf(c, envelopeOfCreate(c.ops.get('create')))?.schema;
  joinItemPaths(candidates, itemOf);
  const built = withParents(
    [...candidates.values()].flatMap((c) => {
      const resource = buildResource(c);
      return resource ? [{ c, resource }] : [];
    }),
  );
  const kept = new Set(built.map((b) => b.c));
  const named = distinctNames(
    built.map(({ c, resource }) => ({ resource, fromXMock: c.name !== undefined })),
  );
  if (typeof named === 'string') return { ok: false, error: named };
  notes.push(...named);
  for (const { c, resource, parent } of built) {
    // The parent's parameter as the sub-collection's own paths name it (`{userId}`, not the parent's `{id}`).
    const param = parent?.itemPath ? paramAt(resource.collectionPath, itemDepth(parent.itemPath)) : undefined;
    if (!parent || !param) continue;
    // An item that names its parent in a field (`metadata.namespace`) may name one nobody created.
    const depth = itemDepth(parent.itemPath as string);
    // ... and its key is a name the client chose (a namespace such as `default`), not an id a server gave.
    const named = resource.pathFields?.some((f) => f.depth === depth) && parent.idSource === 'client';
    const optional = c.parentRequired === undefined ? named : !c.parentRequired;
    resource.parent = { name: parent.name, param, ...(optional ? { optional } : {}) };
  }
  const resources: Resource[] = [];
  const byOperation = new Map<string, Binding>();
  for (const { c, resource } of built) {
    resources.push(resource);
    for (const [action, op] of c.ops) {
      if (resource.operations[action] === op.operationId)
        byOperation.set(op.operationId, {
          resource,
          action,
          ...(resource.pathFields?.length && isCollectionAction(action)
            ? { fields: resource.pathFields }
            : {}),
        });
    }
  }
  const dropped = [...[...candidates.values()].filter((c) => !kept.has(c)), ...strays];
  for (const { op, ...binding } of aliasBindings(dropped, resources, itemOf))
    if (!byOperation.has(op.operationId)) byOperation.set(op.operationId, binding);
  // Answers no value can meet: said once at start, naming the operation and status.
  notes.push(...unsatisfiableAnswers(spec));
  const scopes = itemScopes(spec, { resources, byOperation }, notes);
  if (typeof scopes === 'string') return { ok: false, error: scopes };
  return { ok: true, model: { resources, byOperation, itemScopes: scopes, notes } };
}

const isCollectionAction = (a: Action): boolean => a === 'create' || a === 'list' || a === 'search';

/** Words that name what an operation does, never a sub-collection (`/schedules/{id}/deactivate`). */
const VERB_SEGMENT =
  /^(un)?(activate|deactivate|enable|disable|archive|publish|close|open|reopen|lock|pause|resume|cancel|complete|approve|reject|favorite|favourite|star|follow|like|pin|mute|hide|verify|suspend|restore|start|stop|run|send|retry|refund|capture|confirm|submit|search|find|count|export|import|validate|test|preview|download|upload|clone|copy|move|merge|sync)$/i;

/** `/articles/{slug}/comments`: a literal name right under an item path, not a verb. */
function isSubCollection(collectionPath: string): boolean {
  const segs = segments(collectionPath);
  const last = segs[segs.length - 1];
  const above = segs[segs.length - 2];
  return (
    last !== undefined &&
    above !== undefined &&
    !isParam(last) &&
    isParam(above) &&
    !last.includes(':') &&
    !VERB_SEGMENT.test(last)
  );
}

interface Built {
  c: Candidate;
  resource: Resource;
  /** The resource whose item a sub-collection lives under. */
  parent?: Resource;
}

/**
 * Each nested collection linked to the resource whose item path is right above it (`/articles/{slug}` above
 * `/articles/{slug}/comments`); one with no such resource (and no `x-mock.resource`) is dropped, and one that
 * only creates (no list, no item path) is taken for an action on the item, not a sub-collection.
 */
function withParents(list: { c: Candidate; resource: Resource }[]): Built[] {
  const out: Built[] = [];
  const byItemPath = new Map<string, Resource>();
  const resources = list.map((b) => b.resource);
  for (const b of list)
    if (b.resource.itemPath) byItemPath.set(itemSkeleton(b.resource.itemPath), b.resource);
  for (const b of list) {
    if (!segments(b.c.collectionPath).some(isParam)) {
      out.push(b);
      continue;
    }
    // By skeleton: `/users/{userId}/posts` lives under `/users/{id}`.
    const parent = byItemPath.get(skeleton(`/${segments(b.c.collectionPath).slice(0, -1).join('/')}`));
    const collectionLike = b.resource.operations.list !== undefined || b.resource.itemPath !== undefined;
    // `/orgs/{org}/repos` of the repositories at `/repos/{owner}/{repo}`: another way in to them (aliasBindings).
    const elsewhere = !b.resource.itemPath && aliasHome(b.c.collectionPath, b.resource.itemSchema, resources);
    if (elsewhere) continue;
    if (parent && parent !== b.resource && collectionLike) out.push({ ...b, parent });
    // Kept without a parent resource: named by x-mock, an item path elsewhere (`/projects/{project_gid}` of
    // `/workspaces/{workspace_gid}/projects`), items that name each parameter in a field (`metadata.namespace`),
    // or a whole collection under a parent the document does not publish (`/accounts/{account}/widgets`, its
    // create and its item path): kept per parent (`scope`).
    else if (
      b.c.name ||
      b.c.joined ||
      (b.resource.itemPath && b.resource.scope && (b.resource.pathFields || b.resource.operations.create))
    )
      out.push(b);
  }
  return out;
}

/**
 * One name per resource. Two paths that infer the same name (`/sessions` and `/applePay/sessions`) are told
 * apart by their paths: the shorter keeps the name, the other is named by its path's literal segments
 * (`applePay-sessions`), then a number if that is taken too. A name `x-mock` gives is kept, and two equal ones
 * are an error. Renames the resources in place; returns one note per rename.
 */
function distinctNames(list: { resource: Resource; fromXMock: boolean }[]): string[] | string {
  const groups = new Map<string, typeof list>();
  for (const entry of list)
    groups.set(entry.resource.name, [...(groups.get(entry.resource.name) ?? []), entry]);
  const taken = new Set(groups.keys());
  const notes: string[] = [];
  for (const [name, group] of groups) {
    if (group.length < 2) continue;
    const given = group.filter((g) => g.fromXMock);
    if (given.length > 1)
      return `${given[1]?.resource.collectionPath}: x-mock names ${name}, as on ${given[0]?.resource.collectionPath}`;
    const depth = (g: (typeof list)[number]) => segments(g.resource.collectionPath).length;
    const keeper =
      given[0] ??
      [...group].sort(
        (a, b) => depth(a) - depth(b) || a.resource.collectionPath.localeCompare(b.resource.collectionPath),
      )[0];
    for (const g of group) {
      if (g === keeper) continue;
      const base =
        segments(g.resource.collectionPath)
          .filter((s) => !isParam(s))
          .join('-') || name;
      let renamed = base;
      for (let n = 2; taken.has(renamed); n++) renamed = `${base}-${n}`;
      taken.add(renamed);
      g.resource.name = renamed;
      notes.push(
        `resource ${g.resource.collectionPath} named ${renamed} (${name} is ${keeper?.resource.collectionPath}; x-mock.resource names it)`,
      );
    }
  }
  return notes;
}

/**
 * The skeletons of the documented collection paths (the last segment a literal), and the collection each name
 * (its last literal, or the path's `x-mock.resource`) stands for, where the name is one collection's only.
 */
function collectionKeys(paths: Record<string, unknown>): {
  documented: Set<string>;
  byName: Map<string, string>;
} {
  const documented = new Set<string>();
  const byName = new Map<string, string | null>();
  for (const [path, item] of Object.entries(paths)) {
    const last = segments(path).pop();
    if (last === undefined || isParam(last)) continue;
    const key = skeleton(path);
    documented.add(key);
    const x = isObject(item) ? item['x-mock'] : undefined;
    for (const name of [last, isObject(x) && typeof x.resource === 'string' ? x.resource : undefined])
      if (name) byName.set(name, byName.has(name) && byName.get(name) !== key ? null : key);
  }
  const unique = new Map<string, string>();
  for (const [name, key] of byName) if (key) unique.set(name, key);
  return { documented, byName: unique };
}

/** Paths that are collections: documented ones, and the parents of item paths (`/user` of `/user/{name}`). */
function collectionsOf(templates: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const t of templates) {
    out.add(t.replace(/\/+$/, ''));
    const segs = segments(t);
    const last = segs[segs.length - 1];
    if (last !== undefined && isParam(last)) out.add(`/${segs.slice(0, -1).join('/')}`);
  }
  return out;
}

/** `/volumes/create` (or `new`, `add`) under a collection path: the collection's create. */
function createVerbParent(segs: readonly string[], collections: ReadonlySet<string>): boolean {
  const last = segs[segs.length - 1] ?? '';
  return (
    segs.length > 1 && /^(create|new|add)$/i.test(last) && collections.has(`/${segs.slice(0, -1).join('/')}`)
  );
}

/** The paths with an item path right under them, and the last literal of each (`repos` of `/repos/{owner}/{repo}`). */
interface ItemHomes {
  paths: Set<string>;
  names: Set<string>;
}

function itemHomesOf(templates: readonly string[]): ItemHomes {
  const out: ItemHomes = { paths: new Set(), names: new Set() };
  for (const t of templates) {
    const own = ownParams(t).length;
    if (own === 0) continue;
    const home = segments(t).slice(0, -own);
    out.paths.add(`/${home.join('/')}`);
    const name = home[home.length - 1];
    if (name !== undefined && !isParam(name)) out.names.add(name.toLowerCase());
  }
  return out;
}

/**
 * A custom method (`/files:upload`) or a literal segment under a collection (`/pet/findByStatus`); not a collection
 * of its own items (`/user/keys` beside `/user/keys/{key_id}`) or of items whose path is elsewhere (`/user/repos`
 * beside `/repos/{owner}/{repo}`), which are sub-collections of the path above.
 */
function isActionPath(path: string, collections: ReadonlySet<string>, homes: ItemHomes): boolean {
  const segs = segments(path);
  const last = segs[segs.length - 1] ?? '';
  if (last.includes(':')) return true;
  if (segs.length < 2 || !collections.has(`/${segs.slice(0, -1).join('/')}`)) return false;
  const name = last.toLowerCase();
  return !homes.paths.has(path) && ![name, plural(name), singular(name)].some((n) => homes.names.has(n));
}

/** The item schema: the item read's answer, else the create's, else the list's items (or envelope's). */
function itemSchemaOf(
  c: Candidate,
  wrapper: string | undefined,
): { schema: Schema; envelope?: string } | null {
  for (const action of ['read', 'create', 'replace', 'update'] as const) {
    const schema = innerSchema(successSchema(c.ops.get(action)), wrapper);
    if (schema && objectShape(schema)) return { schema };
  }
  const list = successSchema(c.ops.get('list'));
  const items = arrayItems(list);
  if (items && objectShape(items)) return { schema: items };
  const envelope = envelopeOf(list, segments(c.collectionPath).pop());
  return envelope ? { schema: envelope.items, envelope: envelope.property } : null;
}

/** A list answered as an object whose one array property holds objects: `{ data: [...], links: {...} }`. */
function envelopeOf(
  list: Schema | undefined,
  collection?: string,
): { property: string; items: Schema } | null {
  const envelope = objectShape(list);
  if (!envelope) return null;
  // Through allOf, a part may narrow another's array (`Wrapper.data: items {}` + `{ data: items Booking }`).
  const parts = [list, ...((list as { allOf?: unknown[] } | undefined)?.allOf ?? [])];
  const arrays = new Map<string, Schema>();
  for (const part of parts)
    for (const [name, p] of Object.entries(objectShape(part)?.properties ?? {})) {
      const items = arrayItems(p);
      if (items && objectShape(items) && !arrays.has(name)) arrays.set(name, items);
    }
  const only = [...arrays][0];
  if (arrays.size === 1 && only) return { property: only[0], items: only[1] };
  // Several lists of objects (Mailchimp's `{ lists: [...], _links: [...] }`): the one named as the collection
  // is, else the one left when hypermedia links (`_links`, `links`) are set aside.
  const last = (collection ?? '').toLowerCase();
  const named = [...arrays].filter(([n]) => [last, singular(last)].includes(n.toLowerCase()));
  const rest = named.length ? named : [...arrays].filter(([n]) => !/^_|^links$/i.test(n));
  return rest.length === 1 && rest[0] ? { property: rest[0][0], items: rest[0][1] } : null;
}

function buildResource(c: Candidate): Resource | null {
  const wrapper = envelopeOfCreate(c.ops.get('create'));
  const found = itemSchemaOf(c, wrapper);
  if (!found) return null;
  const envelope =
    found.envelope ??
    envelopeOf(successSchema(c.ops.get('list')), segments(c.collectionPath).pop())?.property;
  const postUpdate = bindItemPosts(c, found.schema, wrapper);
  const shape = objectShape(found.schema) as ObjectShape;
  const last = c.itemPath ? segments(c.itemPath).pop() : undefined;
  const itemParam = last === undefined ? undefined : paramName(last);
  // A create whose body is a list of items (a batch of alerts) takes each item's shape.
  const createBody = innerSchema(c.ops.get('create')?.requestBody?.schema, wrapper);
  const requestShape = objectShape(createBody) ?? objectShape(arrayItems(createBody));
  const params = c.itemPath ? ownParams(c.itemPath) : [];
  const { idField, key } = keyDecision({
    shape,
    params,
    paramSchemas: new Map(params.map((p) => [p, itemParamSchema(c, p)])),
    request: requestShape,
    override: c.idOverride,
  });
  const keyed = idField !== undefined || key !== undefined;
  const idSchema = idField
    ? shape.properties[idField]
    : key?.length === 1
      ? schemaAt(found.schema, key[0]?.pointer ?? '')
      : undefined;
  const idIsInteger =
    (key?.length ?? 1) === 1 && typesOf(idSchema).some((t) => t === 'integer' || t === 'number');
  const readOnly = readOnlyProperties(shape);
  const requestSchema = innerSchema(c.ops.get('create')?.requestBody?.schema, wrapper);
  const clientMaySend = idField
    ? !readOnly.includes(idField) && requestShape?.properties[idField] !== undefined
    : !!key && !!requestSchema && key.every((k) => schemaAt(requestSchema, k.pointer) !== undefined);
  const operations: Partial<Record<Action, string>> = {};
  for (const [action, op] of c.ops) {
    // Item actions need an id to address the item; without one they answer from examples.
    if (!keyed && (action === 'read' || action === 'replace' || action === 'patch' || action === 'remove'))
      continue;
    if (action === 'update' && !keyed) continue;
    // A list must answer an array (or an envelope) of items, a create must take a body.
    if (action === 'list' && !arrayItems(successSchema(op)) && !envelope) continue;
    if (action === 'search' && !arrayItems(successSchema(op)) && !envelope) continue;
    if (action === 'create' && !op.requestBody) continue;
    operations[action] = op.operationId;
  }
  // Records come from creates: a resource with no way to make one (a search such as /pet/findByStatus, a
  // read-only list) answers from its examples, unless x-mock names it a resource.
  if (Object.keys(operations).length === 0 || (!operations.create && !c.name)) return null;
  const list = c.ops.get('list');
  return {
    name:
      c.name ??
      segments(c.collectionPath)
        .pop()
        ?.replace(/\.json$/, '') ??
      c.collectionPath,
    collectionPath: c.collectionPath,
    itemPath: keyed ? c.itemPath : undefined,
    itemParam: keyed ? itemParam : undefined,
    idField,
    ...(key ? { key } : {}),
    ...scopeOf(c, found.schema),
    idType: !keyed || idIsInteger ? 'integer' : 'string',
    idForm:
      keyed && !idIsInteger
        ? idFormOf([idSchema, itemParamSchema(c, itemParam), exampleIds(c, idField ?? '', wrapper)])
        : undefined,
    idSource: clientMaySend ? 'client' : 'server',
    // An `x-mock.id` names the key itself: nothing is then derived from the prose.
    derivedKey:
      idField && !clientMaySend && c.idOverride === undefined
        ? derivedKeyOf(found.schema, idField, [idSchema, itemParamSchema(c, itemParam)])
        : undefined,
    createdId:
      operations.create && idField
        ? createdIdAt(
            c.ops.get('create'),
            innerSchema(successSchema(c.ops.get('create'), 'create'), wrapper),
            idField,
            itemParam,
          )
        : undefined,
    itemSchema: found.schema,
    postUpdate: postUpdate && Object.values(operations).includes(postUpdate) ? postUpdate : undefined,
    envelope: wrapper,
    // What the create does not take and the item requires, or names as the server's (spec/server-made.ts).
    serverFilled: requestShape
      ? Object.keys(shape.properties).filter(
          (p) =>
            p !== idField &&
            !readOnly.includes(p) &&
            !(p in requestShape.properties) &&
            (shape.required.has(p) || serverMade(p, shape.properties[p] as Schema)),
        )
      : undefined,
    readOnly,
    operations,
    jsonPatch: operations.patch && isJsonPatch(c.ops.get('patch') as OperationSpec) ? true : undefined,
    listEnvelope: envelope && (operations.list || operations.search) ? { property: envelope } : undefined,
    paging: list ? pagingOf(list) : undefined,
    partialReplace:
      operations.replace && partialReplaceOf(c.ops.get('replace'), requestShape, wrapper) ? true : undefined,
    // A key the client may send names the item a create-or-update changes.
    upsert: c.upsert && keyed && clientMaySend ? true : undefined,
  };
}

/** The start of what an operation says of itself (its summary, then its description). */
function proseOf(paths: Record<string, unknown>, op: OperationSpec): string {
  const raw = (paths[op.path] as Record<string, unknown> | undefined)?.[op.method];
  return isObject(raw) ? `${String(raw.summary ?? '')} ${String(raw.description ?? '').slice(0, 80)}` : '';
}

/** A create that says it updates an item it names (`Post a new silence or update an existing one`, `upsert`). */
export const UPSERT_WORDS =
  /\bupsert|\b(create|add|post|insert|put)s?\b.{0,40}\bor (update|replace|overwrite)|\b(update|replace)s? (it |the \w+ )?if (it )?(already )?exists/i;

const UPDATE_WORDS = /(^|[^a-z])(update|modify|edit|change)|^(update|modify|edit|change)/i;

/**
 * `POST` on the item path (`POST /customers/{customer}`) is the item's update when the document says so: its
 * operationId or summary says update (modify, edit), or its body is the item's or the create's schema. Bound as
 * the merge patch, or the replace when a `PATCH` is already there; any other `POST` is an action on the item.
 */
function bindItemPosts(c: Candidate, item: Schema, wrapper: string | undefined): string | undefined {
  const create = innerSchema(c.ops.get('create')?.requestBody?.schema, wrapper);
  for (const { op, summary } of c.posts) {
    const body = innerSchema(op.requestBody?.schema, wrapper);
    const said = [op.operationId, summary].some((t) =>
      UPDATE_WORDS.test(t.replace(/([a-z])([A-Z])/g, '$1 $2')),
    );
    const sameShape =
      body !== undefined && (sameJson(body, item) || (create !== undefined && sameJson(body, create)));
    if (!said && !sameShape) continue;
    const action = c.ops.has('patch') ? (c.ops.has('replace') ? undefined : 'replace') : 'patch';
    if (action) {
      c.ops.set(action, op);
      return op.operationId;
    }
  }
  return undefined;
}

/** Does the replace leave optional something the create requires (RealWorld's `UpdateArticle`)? */
function partialReplaceOf(
  replace: OperationSpec | undefined,
  create: ObjectShape | null,
  wrapper: string | undefined,
): boolean {
  const body = objectShape(innerSchema(replace?.requestBody?.schema, wrapper));
  if (!body || !create) return false;
  return [...create.required].some((p) => !body.required.has(p));
}

/**
 * Records kept per the collection path's parameters (its items' paths under it), and the fields of the item
 * those parameters name (set by a create from the path).
 */
function scopeOf(c: Candidate, item: Schema): Pick<Resource, 'scope' | 'pathFields'> {
  const depths = segments(c.collectionPath).flatMap((s, i) => (isParam(s) ? [i] : []));
  if (depths.length === 0) return {};
  const under =
    !c.itemPath ||
    c.itemPath.startsWith(`${c.collectionPath}/`) ||
    skeleton(c.itemPath).startsWith(`${skeleton(c.collectionPath)}/`);
  const pathFields = fieldsOf(c.collectionPath, item);
  return { ...(under ? { scope: depths } : {}), ...(pathFields ? { pathFields } : {}) };
}

/** The schema of the item path's id parameter, as an operation on the item path declares it. */
function itemParamSchema(c: Candidate, itemParam: string | undefined): Schema | undefined {
  for (const op of c.ops.values())
    if (op.path === c.itemPath)
      for (const p of op.pathParamSpecs) if (p.name === itemParam) return p.schema as Schema;
  return undefined;
}

/** The ids the answers' examples show (`{"id": "sched_1234", …}`), as a schema's `examples`. */
function exampleIds(c: Candidate, idField: string, wrapper: string | undefined): Schema {
  const ids: unknown[] = [];
  for (const action of ['read', 'create'] as const) {
    const op = c.ops.get(action);
    for (const r of op ? successResponses(op) : []) ids.push(asRecord(unwrap(r.example, wrapper))?.[idField]);
  }
  return { examples: ids.filter((id) => typeof id === 'string') } as Schema;
}

const asRecord = (v: unknown): Record<string, unknown> | undefined => (isObject(v) ? v : undefined);

const PAGING_NAMES: Record<string, keyof NonNullable<Resource['paging']>> = {
  page: 'page',
  limit: 'limit',
  per_page: 'limit',
  perpage: 'limit',
  pagesize: 'limit',
  page_size: 'limit',
  size: 'limit',
  maxresults: 'limit',
  max_results: 'limit',
  maxitems: 'limit',
  max_items: 'limit',
  offset: 'offset',
  skip: 'offset',
  cursor: 'cursor',
  after: 'cursor',
  starting_after: 'cursor',
  continue: 'cursor',
  pagetoken: 'cursor',
  page_token: 'cursor',
  nexttoken: 'cursor',
  next_token: 'cursor',
  marker: 'cursor',
};

function pagingOf(list: OperationSpec): Resource['paging'] {
  const out: NonNullable<Resource['paging']> = {};
  for (const p of list.queryParams) {
    const role = PAGING_NAMES[p.name.toLowerCase()];
    if (role && out[role] === undefined) out[role] = p.name;
  }
  return Object.keys(out).length ? out : undefined;
}

/** One line per resource, for the start banner and the docs: what was inferred, each part `x-mock` can override. */
export function describeResources(model: ResourceModel): string[] {
  return model.resources.map((r) => {
    const actions = ACTIONS.filter((a) => r.operations[a]).join(', ');
    const pointers = r.key ? r.key.map((k) => `${k.pointer} ({${k.param}})`).join(' + ') : undefined;
    const key =
      r.idField || pointers
        ? `key ${pointers ?? pointerTo(r.idField ?? '')} (${r.idType}${r.idForm ? ` as ${describeIdForm(r.idForm)}` : ''}, ${r.idSource === 'client' ? 'client or server' : 'server'})`
        : 'no key';
    const parts = [
      `${r.name}: ${r.collectionPath}${r.itemPath ? ` + ${r.itemPath}` : ''}`,
      actions,
      key,
      r.derivedKey
        ? `the key is the MD5 of ${r.derivedKey.lowerCase ? 'the lower-cased ' : ''}${r.derivedKey.from}`
        : '',
      r.createdId
        ? `a create answers the id ${'pointer' in r.createdId ? `at ${r.createdId.pointer}` : 'in Location'}`
        : '',
      r.postUpdate ? `POST ${r.itemPath ?? ''} updates (${r.postUpdate})` : '',
      r.envelope ? `bodies in .${r.envelope}` : '',
      r.listEnvelope ? `list in .${r.listEnvelope.property}` : '',
      r.parent
        ? `under each ${r.parent.name} item ({${r.parent.param}}${r.parent.optional ? ', which need not exist' : ''})`
        : r.scope
          ? `kept per ${r.scope.map((d) => `{${paramAt(r.collectionPath, d) ?? ''}}`).join(' ')}`
          : '',
      r.pathFields?.length
        ? `a create sets ${r.pathFields.map((f) => `${f.pointer} from {${paramAt(r.collectionPath, f.depth) ?? ''}}`).join(', ')}`
        : '',
      ...[...model.byOperation]
        .filter(([id, b]) => b.resource === r && r.operations[b.action] !== id)
        .map(([id, b]) => `${b.action} also by ${id}${b.everywhere ? ' (every parent)' : ''}`),
      r.partialReplace ? 'a replace keeps what it does not send' : '',
      r.upsert ? 'a create naming a stored key updates it' : '',
    ];
    return parts.filter(Boolean).join('; ');
  });
}

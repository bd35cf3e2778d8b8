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
import { envelopeOfCreate, innerSchema, unwrap } from './envelope';
import { describeIdForm, idFormOf } from './id-form';
import { isJsonPatch } from './json-patch';
import { itemScopes, type ItemScope } from './item-scope';
import type { Action, Resource } from './resource-types';
import { unsatisfiableAnswers } from './satisfiable';
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
  action?: Action;
  id?: string;
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
  if (raw.id !== undefined) {
    if (typeof raw.id !== 'string' || !raw.id) return `${where}: x-mock.id must be a property name`;
    out.id = raw.id;
  }
  return out;
}

const segments = (path: string): string[] => path.split('/').filter(Boolean);
const isParam = (segment: string): boolean => /^\{[^}]+\}$/.test(segment);
const successSchema = (op: OperationSpec | undefined): Schema | undefined => {
  if (!op) return undefined;
  const statuses = [...op.responses.keys()].filter((s) => /^2\d\d$/.test(s)).sort();
  for (const s of statuses) {
    const schema = op.responses.get(s)?.schema;
    if (schema) return schema;
  }
  return undefined;
};

/** The default action of `method` on a collection or an item path. */
function conventionalAction(method: string, onItem: boolean): Action | undefined {
  if (onItem) return ({ get: 'read', put: 'replace', patch: 'patch', delete: 'remove' } as const)[method];
  return ({ post: 'create', get: 'list', put: 'update', query: 'search' } as const)[method];
}

interface Candidate {
  collectionPath: string;
  itemPath?: string;
  name?: string;
  idOverride?: string;
  ops: Map<Action, OperationSpec>;
}

/** Infer every resource of `spec`; a conflicting or malformed `x-mock` is an error naming its path. */
export function inferResources(spec: CompiledSpec): ResourcesResult {
  const paths = (spec.document.paths ?? {}) as Record<string, OpenAPIV3_1.PathItemObject | undefined>;
  const collectionPaths = collectionsOf(Object.keys(paths));
  const candidates = new Map<string, Candidate>();
  const candidate = (collectionPath: string): Candidate => {
    let c = candidates.get(collectionPath);
    if (!c) candidates.set(collectionPath, (c = { collectionPath, ops: new Map() }));
    return c;
  };
  const notes: string[] = [];
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
    const collectionPath = onItem ? `/${segs.slice(0, -1).join('/')}` : op.path;
    // A nested collection (`/articles/{slug}/comments`) is a sub-collection of the item above it when that item
    // is a resource's (settled below, once every resource is known); a verb (`/schedules/{id}/deactivate`) never.
    const nested = segments(collectionPath).some(isParam);
    if (nested && !x.resource && !isSubCollection(collectionPath)) continue;
    // A path that acts on a collection (`/user/createWithList`, `/pet/findByStatus`, `/files:upload`) is no
    // resource of its own: it answers from examples or its schema, unless x-mock says otherwise.
    if (!nested && !onItem && !x.resource && !x.action && isActionPath(op.path, collectionPaths)) continue;
    if (collectionPath === '/' || collectionPath === '') continue;
    const action = x.action ?? conventionalAction(op.method, onItem);
    if (!action) continue;
    const c = candidate(collectionPath);
    if (onItem && c.itemPath && c.itemPath !== op.path) {
      // `/countries/{code3}` beside `/countries/{code2}`: the first addresses the stored items.
      notes.push(
        `${where}: a second item path of ${collectionPath} (beside ${c.itemPath}), served from the document`,
      );
      continue;
    }
    if (onItem) c.itemPath = op.path;
    if (x.resource) {
      if (c.name && c.name !== x.resource)
        return { ok: false, error: `${op.path}: x-mock names ${x.resource}, the path is already ${c.name}` };
      c.name = x.resource;
    }
    if (x.id) c.idOverride = x.id;
    const taken = c.ops.get(action);
    if (taken) {
      notes.push(
        `${where}: ${action} of ${collectionPath} is already ${taken.method.toUpperCase()} ${taken.path}, served from the document (x-mock.action says otherwise)`,
      );
      continue;
    }
    c.ops.set(action, op);
  }
  const built = withParents(
    [...candidates.values()].flatMap((c) => {
      const resource = buildResource(c);
      return resource ? [{ c, resource }] : [];
    }),
  );
  const named = distinctNames(
    built.map(({ c, resource }) => ({ resource, fromXMock: c.name !== undefined })),
  );
  if (typeof named === 'string') return { ok: false, error: named };
  notes.push(...named);
  for (const { resource, parent } of built)
    if (parent?.itemParam) resource.parent = { name: parent.name, param: parent.itemParam };
  const resources: Resource[] = [];
  const byOperation = new Map<string, Binding>();
  for (const { c, resource } of built) {
    resources.push(resource);
    for (const [action, op] of c.ops) {
      if (resource.operations[action] === op.operationId)
        byOperation.set(op.operationId, { resource, action });
    }
  }
  // Answers no value can meet: said once at start, naming the operation and status.
  notes.push(...unsatisfiableAnswers(spec));
  const scopes = itemScopes(spec, { resources, byOperation }, notes);
  if (typeof scopes === 'string') return { ok: false, error: scopes };
  return { ok: true, model: { resources, byOperation, itemScopes: scopes, notes } };
}

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
  for (const b of list) if (b.resource.itemPath) byItemPath.set(b.resource.itemPath, b.resource);
  for (const b of list) {
    if (!segments(b.c.collectionPath).some(isParam)) {
      out.push(b);
      continue;
    }
    const parent = byItemPath.get(`/${segments(b.c.collectionPath).slice(0, -1).join('/')}`);
    const collectionLike = b.resource.operations.list !== undefined || b.resource.itemPath !== undefined;
    if (parent && parent !== b.resource && collectionLike) out.push({ ...b, parent });
    else if (b.c.name) out.push(b);
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

/** A custom method (`/files:upload`) or a literal segment under a collection (`/pet/findByStatus`). */
function isActionPath(path: string, collections: ReadonlySet<string>): boolean {
  const segs = segments(path);
  const last = segs[segs.length - 1] ?? '';
  if (last.includes(':')) return true;
  return segs.length > 1 && collections.has(`/${segs.slice(0, -1).join('/')}`);
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
  const envelope = envelopeOf(list);
  return envelope ? { schema: envelope.items, envelope: envelope.property } : null;
}

/** A list answered as an object whose one array property holds objects: `{ data: [...], links: {...} }`. */
function envelopeOf(list: Schema | undefined): { property: string; items: Schema } | null {
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
  return arrays.size === 1 && only ? { property: only[0], items: only[1] } : null;
}

function buildResource(c: Candidate): Resource | null {
  const wrapper = envelopeOfCreate(c.ops.get('create'));
  const found = itemSchemaOf(c, wrapper);
  if (!found) return null;
  const envelope = found.envelope ?? envelopeOf(successSchema(c.ops.get('list')))?.property;
  const shape = objectShape(found.schema) as ObjectShape;
  const itemParam = c.itemPath ? segments(c.itemPath).pop()?.slice(1, -1) : undefined;
  const requestShape = objectShape(innerSchema(c.ops.get('create')?.requestBody?.schema, wrapper));
  const idField = idFieldOf(c, shape, itemParam, requestShape);
  const idSchema = idField ? shape.properties[idField] : undefined;
  const idIsInteger = typesOf(idSchema).some((t) => t === 'integer' || t === 'number');
  const readOnly = readOnlyProperties(shape);
  const clientMaySend =
    idField !== undefined && !readOnly.includes(idField) && requestShape?.properties[idField] !== undefined;
  const operations: Partial<Record<Action, string>> = {};
  for (const [action, op] of c.ops) {
    // Item actions need an id to address the item; without one they answer from examples.
    if (!idField && (action === 'read' || action === 'replace' || action === 'patch' || action === 'remove'))
      continue;
    if (action === 'update' && !idField) continue;
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
    name: c.name ?? segments(c.collectionPath).pop() ?? c.collectionPath,
    collectionPath: c.collectionPath,
    itemPath: idField ? c.itemPath : undefined,
    itemParam: idField ? itemParam : undefined,
    idField,
    idType: idField === undefined || idIsInteger ? 'integer' : 'string',
    idForm:
      idField && !idIsInteger
        ? idFormOf([idSchema, itemParamSchema(c, itemParam), exampleIds(c, idField, wrapper)])
        : undefined,
    idSource: clientMaySend ? 'client' : 'server',
    itemSchema: found.schema,
    envelope: wrapper,
    serverFilled: requestShape
      ? [...shape.required].filter(
          (p) => p !== idField && !readOnly.includes(p) && !(p in requestShape.properties),
        )
      : undefined,
    readOnly,
    operations,
    jsonPatch: operations.patch && isJsonPatch(c.ops.get('patch') as OperationSpec) ? true : undefined,
    listEnvelope: envelope && (operations.list || operations.search) ? { property: envelope } : undefined,
    paging: list ? pagingOf(list) : undefined,
    partialReplace:
      operations.replace && partialReplaceOf(c.ops.get('replace'), requestShape, wrapper) ? true : undefined,
  };
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
  for (const action of ['read', 'create'] as const)
    for (const [status, r] of c.ops.get(action)?.responses ?? [])
      if (/^2\d\d$/.test(status)) ids.push(asRecord(unwrap(r.example, wrapper))?.[idField]);
  return { examples: ids.filter((id) => typeof id === 'string') } as Schema;
}

const asRecord = (v: unknown): Record<string, unknown> | undefined => (isObject(v) ? v : undefined);

function idFieldOf(
  c: Candidate,
  shape: ObjectShape,
  itemParam: string | undefined,
  request: ObjectShape | null,
): string | undefined {
  // An object or a list is never the id (DigitalOcean's `floating_ip` wrapper beside the `{floating_ip}` path).
  const props = Object.fromEntries(
    Object.entries(shape.properties).filter(
      // Through allOf too: AWS's `appBundle: { allOf: [{ $ref: AppBundle }, { description }] }` is an object.
      ([, p]) =>
        !typesOf(p).some((t) => t === 'object' || t === 'array') && !objectShape(p) && !arrayItems(p),
    ),
  );
  if (c.idOverride) return c.idOverride;
  const readOnly = readOnlyProperties(shape).filter((p) => p in props);
  if (readOnly.length === 1) return readOnly[0];
  if (itemParam && props[itemParam]) return itemParam;
  if (props.id) return 'id';
  // `{floating_ip}` addressing an item whose `ip` is the address; `{droplet_id}` one whose `id` is.
  const tail = itemParam
    ?.split(/_|-|(?=[A-Z])/)
    .pop()
    ?.toLowerCase();
  if (tail && props[tail]) return tail;
  if (request) {
    const lacking = [...shape.required].filter((p) => p in props && !(p in request.properties));
    if (lacking.length === 1) return lacking[0];
  }
  if (readOnly.includes('id')) return 'id';
  return undefined;
}

const PAGING_NAMES: Record<string, keyof NonNullable<Resource['paging']>> = {
  page: 'page',
  limit: 'limit',
  per_page: 'limit',
  perpage: 'limit',
  pagesize: 'limit',
  page_size: 'limit',
  size: 'limit',
  offset: 'offset',
  cursor: 'cursor',
  after: 'cursor',
};

function pagingOf(list: OperationSpec): Resource['paging'] {
  const out: NonNullable<Resource['paging']> = {};
  for (const p of list.queryParams) {
    const role = PAGING_NAMES[p.name.toLowerCase()];
    if (role && out[role] === undefined) out[role] = p.name;
  }
  return Object.keys(out).length ? out : undefined;
}

/** One line per resource, for the start banner and the docs: name, path, actions, id. */
export function describeResources(model: ResourceModel): string[] {
  return model.resources.map((r) => {
    const actions = ACTIONS.filter((a) => r.operations[a]).join(', ');
    const id = r.idField
      ? `id ${r.idField} (${r.idType}${r.idForm ? ` as ${describeIdForm(r.idForm)}` : ''}, ${r.idSource === 'client' ? 'client or server' : 'server'})`
      : 'no id';
    const wrapped = r.envelope ? `; bodies in .${r.envelope}` : '';
    const under = r.parent ? `; under each ${r.parent.name} item` : '';
    const partial = r.partialReplace ? '; a replace keeps what it does not send' : '';
    return `${r.name}: ${r.collectionPath}${r.itemPath ? ` + ${r.itemPath}` : ''}; ${actions}; ${id}${wrapped}${r.listEnvelope ? `; list in .${r.listEnvelope.property}` : ''}${under}${partial}`;
  });
}

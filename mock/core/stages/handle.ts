/**
 * Stage: produce the answer. An operation the document makes a resource action is real state (a record you
 * create is there when you list, read, replace, patch or delete it); any other operation answers from its
 * examples, else from its schema. `Prefer: code=NNN` answers with that documented status and its example.
 */
import { matchBasePath } from '../../../spec/base-path';
import { documentedResponse, type OperationSpec, type ResponseSpec } from '../../../spec/compile';
import { unwrap, wrapAs } from '../../../spec/envelope';
import { describeIdForm } from '../../../spec/id-form';
import type { Binding, Resource } from '../../../spec/resources';
import type { ItemScope } from '../../../spec/item-scope';
import { withoutWriteOnly } from '../../../spec/schema-views';
import {
  apiError,
  asDocumented,
  invalidRequest,
  isErrorReply,
  noSuchRecord,
  type ErrorReply,
} from '../errors';
import { checkValue, namedByBody } from '../body-check';
import { validAnswer } from '../../../spec/conform';
import { documentedHeaders } from '../headers';
import { chooseStream, mediaBody, streamReply } from '../media-body';
import { chosenStatus, namedExamples } from '../prefer';
import { sampleOf } from '../../../spec/sample';
import { applyJsonPatch, sendsJsonPatch } from '../json-patch';
import type { Deps, FinalStage, ReadCtx, Reply, RoutedCtx } from '../context';
import type { ReadOnlyHandling } from '../settings';
import {
  mergePatch,
  PARENT_KEY,
  presentItem,
  presentList,
  successStatus,
  toStored,
  withoutParent,
} from '../records';
import { isPending, whenReady, type JsonObject, type MaybePromise } from '../stores/types';
import { isObject } from '../../../spec/json';
import { exampleReply } from '../example-reply';
import { queryFilter, searchFilter, searchView } from '../search';
import { createdAnswer } from '../records';
import { namesWholeKey } from '../../../spec/server-made';
import { cachedRead } from '../read-cache';
import { withUpload } from '../uploads';
import { uuidFrom } from '../../../spec/random';
import {
  bucketOf,
  bucketPrefix,
  itemKey,
  keepKey,
  keyParams,
  matchesFields,
  parentPlace,
  parentTag,
  parentTagTest,
  storeRef,
  withItemPathFields,
  withOwnerParts,
  withPathFields,
  withRecordKey,
} from '../record-place';
import { recordKey, setAt, valueAt } from '../../../spec/resource-key';

const encoder = new TextEncoder();

/** The item key from the path, as the store keys it (`007` addresses integer id 7; see ../record-place.ts). */
const itemId = itemKey;

function reply(op: OperationSpec, status: number, body: unknown): Reply {
  // A success documented by its range (`2XX`) is answered as that range documents it.
  const documented = documentedResponse(op, status);
  if (!documented || status === 204) return { status };
  // JSON documented by an example only (dev.to's create): any JSON is the answer's, so the record as stored.
  if (!documented.schema)
    return documented.contentType ? { status, body, contentType: documented.contentType } : { status };
  // The response view: a stored writeOnly value (a password) is never sent back, and what is sent is valid
  // against the answer's schema (a value the request took in another form is coerced, a missing one generated).
  return { status, body: answerBody(documented, body), contentType: documented.contentType };
}

/** `body` valid against the documented answer (see spec/conform.ts). */
function answerBody(documented: ResponseSpec | undefined, body: unknown): unknown {
  if (!documented?.schema) return body;
  return validAnswer(withoutWriteOnly(documented.schema, body), documented.schema, documented.validateBody);
}

function list(ctx: RoutedCtx, deps: Deps, binding: Binding, op: OperationSpec): MaybePromise<Reply> {
  const r = binding.resource;
  const status = successStatus(op, 'list');
  const paged = r.paging !== undefined && r.paging !== null;
  const bucket = bucketOf(ctx, r);
  // Query parameters that name a property of the item narrow the list (`?state=closed`).
  const narrow = queryFilter(op, r, ctx.query ?? {});
  const kept = (i: JsonObject): boolean => underParent(ctx, deps, r, i) && (!narrow || narrow(i));
  // A list of every parent's items, or of the items whose fields name this path's values.
  if (binding.everywhere || binding.fields?.length) {
    const all =
      binding.everywhere && deps.records.listEvery
        ? deps.records.listEvery(bucketPrefix(ctx, r))
        : deps.records.list(bucket);
    return whenReady(all, (items) => {
      const shown = items.filter((i) => matchesFields(ctx, binding, i) && kept(i));
      return reply(op, status, presentList(op, status, shown, r, ctx.query ?? {}));
    });
  }
  // A repeated plain list with no write in between reuses the bytes: no re-serialising of the whole list.
  if (!r.listEnvelope && !paged && bucket === r.name && !r.parent && !narrow) {
    const version = deps.records.version(r.name);
    // A store in memory knows its version at once: no closure and no promise for the answer cached.
    if (!isPending(version)) return cachedList(ctx, deps, r, op, status, version);
    return version.then((v) => cachedList(ctx, deps, r, op, status, v));
  }
  return whenReady(deps.records.list(bucket), (items) =>
    reply(op, status, presentList(op, status, items.filter(kept), r, ctx.query ?? {})),
  );
}

/**
 * The plain list's answer, its bytes serialised once per store version (any write moves the version): a
 * repeated GET reuses them. One entry per resource, so the cache is bounded by the document.
 */
function cachedList(
  ctx: RoutedCtx,
  deps: Deps,
  r: Resource,
  op: OperationSpec,
  status: number,
  version: number,
): MaybePromise<Reply> {
  const cached = deps.listCache.get(r.name);
  if (cached && cached.version === version)
    return { status, raw: cached.raw, contentType: cached.contentType };
  return whenReady(deps.records.list(r.name), (items) => {
    const shown = presentList(op, status, items, r, ctx.query ?? {});
    const documented = documentedResponse(op, status);
    const raw = encoder.encode(JSON.stringify(answerBody(documented, shown)));
    // The documented JSON media type (a vendor's `application/vnd.x+json; type=collection`), as every answer.
    const contentType = documented?.contentType;
    deps.listCache.set(r.name, { version, raw, contentType });
    return { status, raw, contentType };
  });
}

/** OpenAPI 3.2's QUERY on the collection: the items the body's fields match, as a plain list (see ../search.ts). */
function search(ctx: RoutedCtx, deps: Deps, r: Resource, op: OperationSpec): MaybePromise<Reply> {
  const status = successStatus(op, 'search');
  const matches = searchFilter(ctx.input, r);
  return whenReady(deps.records.list(bucketOf(ctx, r)), (items) => {
    const found = items.filter((i) => underParent(ctx, deps, r, i) && matches(i));
    return reply(op, status, presentList(op, status, found, searchView(r, op, status), ctx.query ?? {}));
  });
}

/** The record a create stores for one item the client sent (`input`), or the 400 that refuses it. */
function newRecord(ctx: RoutedCtx, deps: Deps, binding: Binding, input: unknown): JsonObject | ErrorReply {
  const r = binding.resource;
  const stored = withPathFields(
    ctx,
    // Each new record's invented values differ (two repositories, two numeric ids), reproducibly (--random-seed).
    toStored(withUpload(input, ctx.uploads, r), r, deps.clock.now(), undefined, variantOf(deps)),
    binding.fields,
  );
  // A key the client may leave out (`metadata.name`) is made; a composite key's parts must all be there.
  const named =
    r.key?.length === 1 && recordKey(r, stored) === undefined
      ? newKey(r, stored, deps.random)
      : withOwnerParts(r, stored);
  const record = withRecordKey(r, named);
  if (!record)
    return invalidRequest(`${(r.key ?? []).map((k) => k.pointer).join(' and ')} name the new ${r.name} item`);
  // A full name the server makes of a composite key (`full_name`: `acme/tool`) is this record's, not the example's:
  // its parts as they are (the stored key encodes each part).
  if (r.key && r.key.length > 1) {
    const whole = r.key.map((part) => String(valueAt(record, part.pointer))).join('/');
    for (const f of r.serverFilled ?? [])
      if (namesWholeKey(f) && typeof record[f] === 'string') record[f] = whole;
  }
  // Kept apart by a parent whose records are not in a bucket of their own.
  const parent = r.parent && !r.scope ? parentPlace(ctx, r, deps.model.resources) : undefined;
  if (parent) record[PARENT_KEY] = parentTag(parent);
  return record;
}

/** Why the store refused a new record, as the client's error. */
function refusedCreate(
  deps: Deps,
  op: OperationSpec,
  r: Resource,
  record: JsonObject,
  reason: 'duplicate' | 'full' | 'ids',
): ErrorReply {
  if (reason === 'full')
    return apiError(
      'record_limit',
      `${r.name} already holds ${deps.config.maxRecords} records (--max-records); delete some or reset`,
    );
  if (reason === 'ids' && r.idForm)
    return apiError(
      'record_limit',
      `every ${r.name} id of the document's form (${describeIdForm(r.idForm)}) is taken; delete some or reset`,
    );
  return duplicate(op, r, record);
}

function create(ctx: RoutedCtx, deps: Deps, binding: Binding, op: OperationSpec): MaybePromise<Reply> {
  const r = binding.resource;
  const input = unwrap(ctx.input, r.envelope);
  // A body that is a list of items (a batch of alerts) creates each of them.
  if (Array.isArray(input)) return createEach(ctx, deps, binding, op, input);
  const record = newRecord(ctx, deps, binding, input);
  if (isErrorReply(record)) return record;
  return whenReady(
    deps.records.create(storeRef(r, bucketOf(ctx, r)), record, deps.config.maxRecords),
    (out) => {
      // A create-or-update naming a stored item changes it (spec/resource-types.ts `upsert`).
      if (!out.ok && out.reason === 'duplicate' && r.upsert) return upsert(ctx, deps, r, op, record);
      if (!out.ok) return refusedCreate(deps, op, r, record, out.reason);
      const status = successStatus(op, 'create');
      // The answer the document gives a create: the item, only its id (`{"widgetID": …}`), and where it is.
      const answered = reply(op, status, createdAnswer(op, status, out.record, r));
      const location = locationOf(ctx, deps, r, out.record, documentedResponse(op, status));
      return location && !isErrorReply(answered)
        ? { ...answered, headers: { ...answered.headers, Location: location } }
        : answered;
    },
  );
}

/**
 * The item a create-or-update names, replaced by what was sent (its place and key kept): answered as the
 * create's `200` where documented (an update, not a new item), else as the create.
 */
async function upsert(
  ctx: RoutedCtx,
  deps: Deps,
  r: Resource,
  op: OperationSpec,
  record: JsonObject,
): Promise<Reply> {
  const place = storeRef(r, bucketOf(ctx, r));
  const id = String(record[place.idField ?? ''] ?? '');
  const stored = await deps.records.replace(place, id, record);
  if (!stored) return noSuchRecord(r.name, id);
  const status = op.responses.has('200') ? 200 : successStatus(op, 'create');
  return reply(op, status, createdAnswer(op, status, stored, r));
}

/**
 * A create whose body is a list of items: every item stored, or none. Room for all is checked first; an item
 * the store refuses (a key taken) removes those stored before it. The answer is the list of new items where
 * the document answers a list, else the first as a create's answer (a 200 with no body: nothing).
 */
async function createEach(
  ctx: RoutedCtx,
  deps: Deps,
  binding: Binding,
  op: OperationSpec,
  inputs: unknown[],
): Promise<Reply> {
  const r = binding.resource;
  const records: JsonObject[] = [];
  for (const input of inputs) {
    const record = newRecord(ctx, deps, binding, input);
    if (isErrorReply(record)) return record;
    records.push(record);
  }
  const bucket = bucketOf(ctx, r);
  const held = (await deps.records.list(bucket)).length;
  if (held + records.length > deps.config.maxRecords)
    return refusedCreate(deps, op, r, records[0] ?? {}, 'full');
  const stored: JsonObject[] = [];
  const place = storeRef(r, bucket);
  for (const record of records) {
    const out = await deps.records.create(place, record, deps.config.maxRecords);
    if (!out.ok) {
      const key = place.idField;
      for (const done of stored)
        if (key !== undefined && done[key] !== undefined)
          await deps.records.remove(bucket, String(done[key]));
      return refusedCreate(deps, op, r, record, out.reason);
    }
    stored.push(out.record);
  }
  const status = successStatus(op, 'create');
  const documented = documentedResponse(op, status)?.schema as { type?: unknown } | undefined;
  if (documented?.type === 'array') return reply(op, status, stored.map(withoutParent));
  return stored[0] ? reply(op, status, createdAnswer(op, status, stored[0], r)) : { status };
}

/** A made key for a record that names none (at the key's one pointer), drawn from the seeded source. */
function newKey(r: Resource, record: JsonObject, random: () => number): JsonObject {
  const pointer = r.key?.[0]?.pointer ?? '';
  return setAt(
    record,
    pointer,
    r.idType === 'integer' ? 1 + Math.floor(random() * 2 ** 31) : uuidFrom(random),
  );
}

/** The new item's path (RFC 9110 §10.2.2), under the parent the create's path names, or undefined. */
function locationOf(
  ctx: RoutedCtx,
  deps: Deps,
  r: Resource,
  record: JsonObject,
  documented: ResponseSpec | undefined,
): string | undefined {
  const key = keyParams(r, record);
  if (!r.itemPath || !key) return undefined;
  const params: Record<string, string> = { ...ctx.params, ...key };
  const path = r.itemPath.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
  const full = `${deps.spec.basePath ?? ''}${path}`;
  // A documented Location whose pattern names the item's path without its leading segments (`^/poi/[0-9]+$`
  // for `/api/v1/poi/{id}`) is answered in that form: the header says what the document says.
  const header = documented?.headers.find((h) => h.name.toLowerCase() === 'location');
  const fits = (value: string): boolean => header?.validate(value) === true;
  if (!header || fits(full)) return full;
  const segments = full.split('/');
  for (let i = 2; i < segments.length; i++) {
    const shorter = `/${segments.slice(i).join('/')}`;
    if (fits(shorter)) return shorter;
  }
  return full;
}

function duplicate(op: OperationSpec, r: Resource, record: JsonObject): ErrorReply {
  const key = r.key ? r.key.map((k) => k.pointer).join(' + ') : r.idField;
  const message = `a ${r.name} record with ${key} ${String(r.key ? recordKey(r, record) : record[r.idField ?? ''])} exists already`;
  const dup = apiError('duplicate_id', message);
  // The documented 4xx wins when the operation documents no 409.
  if (!op.responses.has('409') && op.responses.has('400')) return { ...dup, status: 400 };
  return dup;
}

async function replace(
  deps: Deps,
  r: Resource,
  op: OperationSpec,
  id: string,
  input: unknown,
  bucket: string,
  placed: (record: JsonObject) => JsonObject,
): Promise<Reply> {
  const old = await deps.records.get(bucket, id);
  if (!old) return noSuchRecord(r.name, id);
  const sent = unwrap(input, r.envelope);
  // A replace that takes only some of the item (every field optional) changes what it sends, keeps the rest.
  const given = r.partialReplace && isObject(sent) ? { ...withoutParent(old), ...sent } : sent;
  const next = keepKey(r, placed(toStored(given, r, deps.clock.now(), old)), old);
  const stored = await deps.records.replace(storeRef(r, bucket), id, next);
  if (!stored) return noSuchRecord(r.name, id);
  const status = successStatus(op, 'replace');
  return reply(op, status, presentItem(op, status, stored, r));
}

interface PatchOp {
  op?: unknown;
  path?: unknown;
  from?: unknown;
}

/** The operations of a JSON Patch that change (or move away) one of `names`; a `test` only reads. */
function readOnlyWrites(input: unknown, names: readonly string[]): PatchOp[] {
  if (!Array.isArray(input) || names.length === 0) return [];
  const touches = (pointer: unknown): boolean =>
    typeof pointer === 'string' &&
    names.some((n) => {
      const at = `/${n.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return pointer === at || pointer.startsWith(`${at}/`);
    });
  return (input as PatchOp[]).filter(
    (o) =>
      typeof o === 'object' &&
      o !== null &&
      o.op !== 'test' &&
      (touches(o.path) || (o.op === 'move' && touches(o.from))),
  );
}

/** The record after a JSON Patch (RFC 6902) or a merge patch (RFC 7396), as the operation documents. */
function patched(
  op: OperationSpec,
  r: Resource,
  old: JsonObject,
  input: unknown,
  readOnlyMode: ReadOnlyHandling,
  contentType: string | undefined,
): unknown {
  if (!sendsJsonPatch(op, contentType)) return mergePatch(old, unwrap(input, r.envelope));
  // A JSON Patch that writes a readOnly member (`replace /id`) is refused or loses those operations, as a body is.
  const writes = readOnlyWrites(input, r.readOnly);
  if (writes.length > 0 && readOnlyMode === 'reject')
    return asDocumented(
      op.responses,
      invalidRequest(
        `JSON Patch: ${writes[0]?.path ?? ''} is assigned by the service and must not be sent (readOnly)`,
      ),
      [422],
    );
  const ops = writes.length > 0 && Array.isArray(input) ? input.filter((o) => !writes.includes(o)) : input;
  const out = applyJsonPatch(old, ops);
  if (out.ok) return out.value;
  if (!out.failedTest) return invalidRequest(`JSON Patch: ${out.message}`);
  // RFC 5789 §2.2: a patch that cannot apply to the resource's state is 409 Conflict (or the documented 4xx).
  return asDocumented(
    op.responses,
    { ...invalidRequest(`JSON Patch: ${out.message}`), status: 409 },
    [422, 400],
  );
}

async function patch(
  deps: Deps,
  r: Resource,
  op: OperationSpec,
  id: string,
  input: unknown,
  bucket: string,
  contentType: string | undefined,
): Promise<Reply> {
  const old = await deps.records.get(bucket, id);
  if (!old) return noSuchRecord(r.name, id);
  const mode = deps.config.policy.readOnlyProperties ?? 'reject';
  const merged = patched(op, r, old, input, mode, contentType);
  if (isErrorReply(merged)) return merged;
  if (typeof merged !== 'object' || merged === null || Array.isArray(merged))
    return invalidRequest('a patch must leave an object');
  // The merged record must still be what a create or replace would accept.
  const checkedBy =
    (r.partialReplace ? r.operations.create : undefined) ?? r.operations.replace ?? r.operations.create ?? '';
  const check = deps.bodies.get(checkedBy);
  if (check) {
    // A copy: what is left out of the check stays in the record.
    const candidate: JsonObject = { ...withoutParent(merged as JsonObject) };
    for (const p of r.readOnly) delete candidate[p];
    // A server-assigned id the create's schema does not name (`eventId` beside SpecialEventInput) is kept.
    if (r.idField && r.idSource === 'server') delete candidate[r.idField];
    // So are the values the server filled at create (`author`, Stripe's `created`) that the body the patch is
    // checked as does not name, even where its schema's policy lets unknown names through.
    const named = namedByBody(check);
    for (const p of [...(r.serverFilled ?? []), ...placedNames(r)])
      if (named && !named.has(p)) delete candidate[p];
    const schema = deps.spec.byId.get(checkedBy)?.requestBody?.schema;
    const verdict = checkValue(check, wrapAs(schema, r.envelope, candidate));
    if (isErrorReply(verdict)) return asDocumented(op.responses, verdict, [422]);
  }
  const next = keepKey(r, toStored(merged, r, deps.clock.now(), old), old);
  const stored = await deps.records.replace(storeRef(r, bucket), id, next);
  if (!stored) return noSuchRecord(r.name, id);
  const status = successStatus(op, 'patch');
  return reply(op, status, presentItem(op, status, stored, r));
}

/**
 * A sub-collection's parent nobody created: its 404; undefined when there is one, no parent at all, a parent
 * that need not exist (a namespace the item names), or a path that names no parent (an item path elsewhere).
 */
async function missingParent(ctx: RoutedCtx, deps: Deps, r: Resource): Promise<ErrorReply | undefined> {
  const place = r.parent && !r.parent.optional ? parentPlace(ctx, r, deps.model.resources) : undefined;
  if (!place) return undefined;
  const found = await deps.records.get(place.bucket, place.key);
  return found ? undefined : noSuchRecord(place.resource.name, place.key);
}

/**
 * Is `record` one of the items under the parent the path names? Always for a resource kept per parent (its
 * bucket says so), outside a sub-collection, or on a path that names no parent.
 */
function underParent(ctx: RoutedCtx, deps: Deps, r: Resource, record: JsonObject): boolean {
  if (!r.parent || r.scope) return true;
  const named = parentTagTest(ctx, r, deps.model.resources);
  return named === undefined || named(record[PARENT_KEY]);
}

/** A sub-collection's action: its parent must exist, and its item must be one of the parent's. */
async function actUnder(ctx: RoutedCtx, deps: Deps, binding: Binding, op: OperationSpec): Promise<Reply> {
  const r = binding.resource;
  const missing = await missingParent(ctx, deps, r);
  if (missing) return missing;
  const collectionAction =
    binding.action === 'list' || binding.action === 'create' || binding.action === 'search';
  if (!collectionAction && binding.action !== 'update') {
    const id = itemId(ctx, r);
    const found = await deps.records.get(bucketOf(ctx, r), id);
    if (!found || !underParent(ctx, deps, r, found)) return noSuchRecord(r.name, id);
  }
  return act(ctx, deps, binding, op);
}

/** Synchronous with a store in memory (list, create, read, remove); replace and patch await theirs. */
function act(ctx: RoutedCtx, deps: Deps, binding: Binding, op: OperationSpec): MaybePromise<Reply> {
  const r = binding.resource;
  switch (binding.action) {
    case 'list':
      return list(ctx, deps, binding, op);
    case 'create':
      return create(ctx, deps, binding, op);
    case 'search':
      return search(ctx, deps, r, op);
    case 'read': {
      const id = itemId(ctx, r);
      const status = successStatus(op, 'read');
      const bucket = bucketOf(ctx, r);
      // Checked and serialised once per store version (../read-cache.ts), as the plain list is.
      return cachedRead(deps, op, bucket, id, () =>
        whenReady(deps.records.get(bucket, id), (found) =>
          found ? reply(op, status, presentItem(op, status, found, r)) : noSuchRecord(r.name, id),
        ),
      );
    }
    case 'replace':
      return replace(deps, r, op, itemId(ctx, r), ctx.input, bucketOf(ctx, r), (record) =>
        withItemPathFields(ctx, record, r),
      );
    case 'update': {
      const body = unwrap(ctx.input, r.envelope) as JsonObject | undefined;
      const given = r.key ? recordKey(r, body) : body?.[r.idField ?? ''];
      if (given === undefined || given === null)
        return invalidRequest(
          `${r.key ? r.key.map((k) => k.pointer).join(' and ') : `/${r.idField}`} is required to name the record`,
        );
      return replace(deps, r, op, String(given), ctx.input, bucketOf(ctx, r), (record) =>
        withItemPathFields(ctx, record, r),
      );
    }
    case 'patch':
      return patch(deps, r, op, itemId(ctx, r), ctx.input, bucketOf(ctx, r), contentTypeOf(ctx));
    case 'remove': {
      const id = itemId(ctx, r);
      const status = successStatus(op, 'remove');
      return whenReady(deps.records.remove(bucketOf(ctx, r), id), (gone) =>
        gone ? reply(op, status, presentItem(op, status, gone, r)) : noSuchRecord(r.name, id),
      );
    }
  }
}

/**
 * An operation whose every documented answer is `101 Switching Protocols` (a WebSocket endpoint): nothing a mock
 * of plain HTTP can answer as documented, so `426 Upgrade Required` (RFC 9110 §15.5.22) in the error shape,
 * naming WebSocket where the document does; undefined for any other operation.
 */
function onlySwitchesProtocols(op: OperationSpec): ErrorReply | undefined {
  const statuses = [...op.responses.keys()];
  if (statuses.length === 0 || !statuses.every((s) => /^1\d\d$/.test(s))) return undefined;
  const said = [...op.responses.values()].some((r) => /websocket/i.test(r.description));
  return apiError(
    'upgrade_required',
    `${op.method.toUpperCase()} ${op.path} documents only a protocol switch (${statuses.join(', ')}); this mock answers plain HTTP`,
    said ? { Upgrade: 'websocket' } : undefined,
  );
}

async function fromEngine(ctx: RoutedCtx, deps: Deps, operation: OperationSpec): Promise<Reply> {
  const switching = onlySwitchesProtocols(operation);
  if (switching) return switching;
  const path = matchBasePath(ctx.req.path, deps.spec.basePath) ?? ctx.req.path;
  const answer = await deps.engine({
    method: ctx.req.method,
    path,
    operation,
    preferStatus: ctx.preferStatus,
  });
  if ('error' in answer) return apiError('internal_error', `example engine: ${answer.error}`);
  if (answer.status >= 400 && operation.responses.get(String(answer.status))?.example === undefined) {
    return exampleReply(operation, answer.status);
  }
  const documented = documentedResponse(operation, answer.status);
  const headers = documentedHeaders(documented, answer.status);
  if (answer.status === 429) headers['Retry-After'] = '60';
  // A stream of items (3.2 `itemSchema`: SSE, JSON Lines), written item by item.
  const stream = chooseStream(documented, acceptOf(ctx));
  if (stream) return streamReply(stream, answer.status, headers, deps.config.streams, deps.sleep);
  // An answer documented only in other media types (a PDF, XML, RSS, CSV): a body of that type.
  if (documented && !documented.contentType && documented.mediaTypes.length > 0) {
    const media = mediaBody(deps.spec.document, operation, answer.status, acceptOf(ctx));
    if (media) return { status: answer.status, raw: media.raw, contentType: media.contentType, headers };
  }
  return {
    status: answer.status,
    body: answerBody(documented, answer.body),
    contentType: documented?.contentType,
    headers,
  };
}

/** The top-level fields the path or the server sets on a record (`owner` of `/owner/login`, `metadata`). */
const placedNames = (r: Resource): string[] =>
  [...(r.key ?? []), ...(r.pathFields ?? [])].map((f) => f.pointer.split('/')[1] ?? '');

const variantOf = (deps: Deps): number => Math.floor(deps.random() * 0x7fffffff);

const contentTypeOf = (ctx: RoutedCtx): string | undefined => {
  const v = ctx.req.headers['content-type'];
  return Array.isArray(v) ? v[0] : v;
};

const acceptOf = (ctx: RoutedCtx): string | undefined => {
  const v = ctx.req.headers.accept;
  return Array.isArray(v) ? v.join(', ') : v;
};

/**
 * An operation under an item path that no action binds: an id nobody created is a 404 (the documented 4xx),
 * never a generated item; an action answered with the item's schema answers the stored item (issue 26.2, 26.5).
 */
async function onItem(
  ctx: RoutedCtx,
  deps: Deps,
  operation: OperationSpec,
  scope: ItemScope,
): Promise<Reply> {
  if (ctx.preferStatus !== undefined) return fromEngine(ctx, deps, operation);
  const r = scope.resource;
  const id = itemId(ctx, r);
  const missing = await missingParent(ctx, deps, r);
  if (missing) return asDocumented(operation.responses, missing, [400]);
  const bucket = bucketOf(ctx, r);
  let found = await deps.records.get(bucket, id);
  if (!found || !underParent(ctx, deps, r, found))
    return asDocumented(operation.responses, noSuchRecord(r.name, id), [400]);
  // An action whose name says what it does (`deactivate` -> `active: false`) changes the stored item.
  if (scope.change)
    found = (await deps.records.replace(storeRef(r, bucket), id, { ...found, ...scope.change })) ?? found;
  if (!scope.echo) return fromEngine(ctx, deps, operation);
  return reply(operation, scope.status, presentItem(operation, scope.status, found, r));
}

/**
 * `Prefer: example=NAME` or `dynamic=true` (Prism's conventions): the named example of the chosen status, or
 * values generated from its schema, answered from the document alone (nothing is stored or read).
 */
export function preferredAnswer(
  ctx: RoutedCtx,
  deps: Pick<Deps, 'spec' | 'config' | 'sleep'>,
  operation: OperationSpec,
): Reply {
  const status = chosenStatus(ctx, operation);
  const documented = documentedResponse(operation, status);
  const headers = documentedHeaders(documented, status);
  if (status === 429) headers['Retry-After'] = '60';
  // A stream: the named example's items, or (`dynamic=true`) items generated from the item schema.
  const stream = chooseStream(documented, acceptOf(ctx));
  if (stream) {
    const example =
      ctx.preferExample === undefined
        ? undefined
        : namedExamples(deps.spec.document, operation, status).get(ctx.preferExample);
    return streamReply({ ...stream, example }, status, headers, deps.config.streams, deps.sleep);
  }
  if (ctx.preferExample !== undefined) {
    const body = namedExamples(deps.spec.document, operation, status).get(ctx.preferExample);
    return { status, body, contentType: documented?.contentType, headers };
  }
  if (!documented?.schema) return { ...exampleReply(operation, status), headers };
  const body = validAnswer(
    sampleOf(documented.schema, { skipExamples: true }),
    documented.schema,
    documented.validateBody,
  );
  return { status, body, contentType: documented.contentType, headers };
}

export const handle: FinalStage<ReadCtx> = function handle(ctx, deps) {
  const { operation, bound } = ctx;
  if (ctx.preferExample !== undefined || ctx.preferDynamic)
    return { reply: preferredAnswer(ctx, deps, operation), ctx };
  const binding = bound.binding;
  if (bound.itemScope) return onItem(ctx, deps, operation, bound.itemScope).then((reply) => ({ reply, ctx }));
  if (!binding) return fromEngine(ctx, deps, operation).then((reply) => ({ reply, ctx }));
  if (ctx.preferStatus !== undefined && ctx.preferStatus !== bound.successStatus) {
    return { reply: exampleReply(operation, ctx.preferStatus), ctx };
  }
  const acted = binding.resource.parent
    ? actUnder(ctx, deps, binding, operation)
    : act(ctx, deps, binding, operation);
  return whenReady(acted, (reply) =>
    // An unknown id where the operation documents no 404 (the classic Swagger sample's delete): its documented 400.
    isErrorReply(reply) && reply.status === 404
      ? { reply: asDocumented(operation.responses, reply, [400]), ctx }
      : { reply: inDocumentedMedia(reply, ctx, deps, operation), ctx },
  );
};

/**
 * A stored item's answer documented only in other media types (XML, text, vendor's `Promotion`): the body of
 * that type the engine's answer gets (../media-body.ts), not an answer with no body and no `Content-Type`.
 */
function inDocumentedMedia(reply: Reply, ctx: RoutedCtx, deps: Deps, operation: OperationSpec): Reply {
  if (reply.body !== undefined || reply.raw || reply.error || reply.stream || reply.status === 204)
    return reply;
  const documented = documentedResponse(operation, reply.status);
  if (!documented || documented.contentType || documented.mediaTypes.length === 0) return reply;
  const media = mediaBody(deps.spec.document, operation, reply.status, acceptOf(ctx));
  return media ? { ...reply, raw: media.raw, contentType: media.contentType } : reply;
}

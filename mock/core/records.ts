/**
 * Pure helpers of the resource actions: what is stored from a request body, how a stored record is answered
 * (required properties the record lacks, such as `links` around an item, are generated), lists with their
 * envelope and paging, RFC 7396 merge patches, and the documented success status of each action.
 */
import { documentedResponse, type OperationSpec, type ResponseSpec } from '../../spec/compile';
import { innerSchema, wraps } from '../../spec/envelope';
import type { Resource } from '../../spec/resources';
import { arrayItems, objectShape, type ObjectShape, type Schema } from '../../spec/schema-shape';
import { sampleOf } from '../../spec/sample';
import { serverValue } from '../../spec/believable';
import { kindOfName, wordsOf } from '../../spec/field-kind';
import { deriveKey } from '../../spec/derived-key';
import type { JsonObject } from './stores/types';
import { isObject } from '../../spec/json';
import { answerStatus } from '../../spec/success';
import type { Action } from '../../spec/resource-types';

/** Each operation's success status by action, worked out once (an operation is compiled once per load). */
const statuses = new WeakMap<OperationSpec, Map<Action, number>>();

/**
 * The documented success status of `action` on `op` (a create documented as 200 answers 200): spec/success.ts
 * answers it; the handlers ask on every request, so each answer is kept with its operation.
 */
export function successStatus(op: OperationSpec, action: Action): number {
  let byAction = statuses.get(op);
  if (!byAction) statuses.set(op, (byAction = new Map()));
  let status = byAction.get(action);
  if (status === undefined) byAction.set(action, (status = answerStatus(op, action)));
  return status;
}

/**
 * Where a sub-collection's record keeps the id of the item it belongs to (`/articles/{slug}/comments`): stored
 * with it, never answered (the item schema names only its own properties).
 */
export const PARENT_KEY = '$parent';

/** Where a record with a nested or composite key keeps that key (`owner/name`): stored, never answered. */
export const KEY_FIELD = '$key';

/** A record without what the mock keeps beside it (its parent, its composite key). */
export function withoutParent(record: JsonObject): JsonObject {
  if (!(PARENT_KEY in record) && !(KEY_FIELD in record)) return record;
  const out = { ...record };
  delete out[PARENT_KEY];
  delete out[KEY_FIELD];
  return out;
}

/** RFC 7396: apply a JSON merge patch to `target`. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

interface Generated {
  name: string;
  format?: string;
  schema: Schema;
  /** A time the server moves on every change (`updated_at`, `modified`): made anew by a replace or patch. */
  moves?: boolean;
}
const CHANGE_WORDS = new Set(['updated', 'modified', 'changed']);

interface ItemFacts {
  known: Set<string> | null;
  /** The item's names by their normalised form (Twilio's form `FriendlyName` is the answer's `friendly_name`). */
  byNormal: Map<string, string>;
  /** readOnly properties: always the server's (kept from the old record, else generated). */
  generated: Generated[];
  /** Required properties the create does not take (`author`, `createdAt`): the server's unless a body sets them. */
  filled: Generated[];
}
const itemFacts = new WeakMap<Resource, ItemFacts>();

function factsOf(r: Resource): ItemFacts {
  let f = itemFacts.get(r);
  if (f) return f;
  const shape = objectShape(r.itemSchema);
  const names = shape ? Object.keys(shape.properties) : [];
  const describe = (name: string): Generated => {
    const schema = (shape?.properties[name] ?? {}) as Schema;
    const moves = kindOfName(name) === 'time' && wordsOf(name).some((w) => CHANGE_WORDS.has(w));
    return { name, format: (schema as { format?: string }).format, schema, ...(moves ? { moves } : {}) };
  };
  f = {
    known: names.length ? new Set(names) : null,
    byNormal: new Map(names.map((n) => [normalName(n), n])),
    generated: r.readOnly.filter((p) => p !== r.idField).map(describe),
    filled: (r.serverFilled ?? []).map(describe),
  };
  itemFacts.set(r, f);
  return f;
}

/**
 * The record to store from a validated body: only the properties the item schema names (nothing else a client
 * sent is ever stored), the server's readOnly values kept from `old` or generated for a new record.
 */
export function toStored(
  input: unknown,
  r: Resource,
  nowMs: number,
  old?: JsonObject,
  variant = 0,
): JsonObject {
  const facts = factsOf(r);
  const out: JsonObject = {};
  if (old && r.idField && r.idField in old) out[r.idField] = old[r.idField];
  if (old && PARENT_KEY in old) out[PARENT_KEY] = old[PARENT_KEY];
  if (old && KEY_FIELD in old) out[KEY_FIELD] = old[KEY_FIELD];
  if (isObject(input)) {
    for (const [k, v] of Object.entries(input)) {
      if (!facts.known || facts.known.has(k)) out[k] = v;
      else {
        // A body whose names differ from the item's only by case and `_` stores under the item's name.
        const named = facts.byNormal.get(normalName(k));
        if (named !== undefined) out[named] = v;
      }
    }
  }
  const kept = (g: Generated): boolean => old !== undefined && g.name in old && !g.moves;
  for (const g of facts.generated) out[g.name] = kept(g) ? old?.[g.name] : generate(g, nowMs, variant);
  // A merged patch carries the old record's values: a moving time is made anew all the same.
  for (const g of facts.filled)
    if (!(g.name in out) || (old && g.moves))
      out[g.name] = kept(g) ? old?.[g.name] : generate(g, nowMs, variant);
  // A key the document says is made from a field (the MD5 of the email) is made so, where a client computes it.
  const derived = !old && r.derivedKey && r.idField ? deriveKey(r.derivedKey, out) : undefined;
  if (derived !== undefined && r.idField) out[r.idField] = derived;
  return out;
}

/** `FriendlyName`, `friendly_name` and `friendlyName` are one name. */
const normalName = (name: string): string => name.replace(/_/g, '').toLowerCase();

function generate(g: Generated, nowMs: number, variant: number): unknown {
  return serverValue(g.schema, g.name, nowMs, variant) ?? sampleOf(g.schema, { name: g.name, nowMs });
}

interface Filler {
  required: string[];
  sample: JsonObject;
}
const fillers = new WeakMap<object, Filler | null>();

/** Required properties of `schema` and generated values for them, worked out once per schema. */
function fillerOf(schema: Schema | undefined | null): Filler | null {
  if (!schema) return null;
  const cached = fillers.get(schema);
  if (cached !== undefined) return cached;
  const shape = objectShape(schema);
  const sample = shape ? sampleOf(schema, { requiredOnly: true }) : null;
  const filler =
    shape && isObject(sample) && shape.required.size ? { required: [...shape.required], sample } : null;
  fillers.set(schema, filler);
  return filler;
}

function fill(record: JsonObject, filler: Filler | null): JsonObject {
  if (!filler || filler.required.every((k) => k in record)) return record;
  const out = { ...record };
  for (const k of filler.required) if (!(k in out)) out[k] = filler.sample[k];
  return out;
}

/** The item's object shape inside an answer's schema (and envelope), worked out once per schema. */
const itemShapes = new WeakMap<object, { envelope: string | undefined; shape: ObjectShape | null }>();
function itemShapeOf(schema: Schema | undefined, envelope: string | undefined): ObjectShape | null {
  if (!schema) return objectShape(innerSchema(schema, envelope));
  const cached = itemShapes.get(schema);
  if (cached && cached.envelope === envelope) return cached.shape;
  const shape = objectShape(innerSchema(schema, envelope));
  itemShapes.set(schema, { envelope, shape });
  return shape;
}

const schemaOf = (op: OperationSpec, status: number): ResponseSpec['schema'] =>
  documentedResponse(op, status)?.schema;

/**
 * A stored record as the operation answers it: required properties it lacks are generated; wrapped in the
 * resource's envelope (`{"article": {...}}`) where the answer's schema is that wrapper.
 */
export function presentItem(op: OperationSpec, status: number, stored: JsonObject, r?: Resource): JsonObject {
  const schema = schemaOf(op, status);
  const record = withoutParent(stored);
  if (r?.envelope && wraps(schema, r.envelope))
    return { [r.envelope]: fill(record, fillerOf(innerSchema(schema, r.envelope))) };
  return fill(record, fillerOf(schema));
}

/**
 * A create's answer: the stored record as the item, or, where the document answers only the new id in another
 * shape (`{"widgetID": "…"}`: the resource's `createdId`), that shape with the id at its pointer.
 */
export function createdAnswer(op: OperationSpec, status: number, stored: JsonObject, r: Resource): unknown {
  const at = r.createdId;
  const schema = schemaOf(op, status);
  const shape = itemShapeOf(schema, r.envelope);
  if (!at || !('pointer' in at) || !r.idField || !shape || r.idField in shape.properties)
    return presentItem(op, status, stored, r);
  // The answer names what it carries: the id at its pointer, and whatever else of the record it names.
  const name = at.pointer.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
  const out: JsonObject = {};
  for (const p of Object.keys(shape.properties))
    if (p === name) out[p] = stored[r.idField];
    else if (p in stored && p !== PARENT_KEY && p !== KEY_FIELD) out[p] = stored[p];
  return fill(out, fillerOf(schema));
}

const first = (q: Record<string, string[]>, name: string | undefined): number | undefined => {
  const v = name ? q[name]?.[0] : undefined;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
};

/**
 * Where a page starts: the offset or page asked for; a cursor the mock gave (the next offset, as text); or a
 * cursor naming an item (Stripe's `starting_after`: the item's id), which starts after that item.
 */
function startOf(
  items: readonly JsonObject[],
  q: Record<string, string[]>,
  paging: NonNullable<Resource['paging']>,
  size: number,
  idOf: (item: JsonObject) => unknown,
): number {
  const page = first(q, paging.page);
  const cursor = paging.cursor ? q[paging.cursor]?.[0] : undefined;
  const offset = first(q, paging.offset) ?? (cursor && /^\d+$/.test(cursor) ? Number(cursor) : undefined);
  if (offset !== undefined) return offset;
  if (page !== undefined) return Math.max(0, page - 1) * size;
  const after = cursor ? items.findIndex((i) => String(idOf(i)) === cursor) : -1;
  return after + 1;
}

/** The page the documented paging parameters ask for (page/limit, offset/limit or a cursor). */
export function pageOf(
  items: readonly JsonObject[],
  paging: Resource['paging'],
  query: Record<string, string[]>,
  idOf: (item: JsonObject) => unknown = () => undefined,
): { items: readonly JsonObject[]; page?: number; limit?: number; next?: string } {
  if (!paging) return { items };
  const limit = first(query, paging.limit);
  const page = first(query, paging.page);
  const asked = [paging.page, paging.offset, paging.cursor].some((n) => n !== undefined && query[n]);
  const size = limit ?? (asked ? 20 : items.length);
  const start = startOf(items, query, paging, size, idOf);
  const slice = items.slice(start, start + size);
  const next = start + size < items.length ? String(start + size) : undefined;
  return { items: slice, page, limit: size, next };
}

/** `has_more` (Stripe-style), `hasMore`, `has_next`, `more`: whether another page follows this one. */
const MORE_NAMES = new Set(['hasmore', 'hasnext', 'hasnextpage', 'more']);
const COUNT_NAMES = new Set([
  'total',
  'totalcount',
  'total_count',
  'count',
  'totalitems',
  'total_items',
  'total_entries',
]);

interface ListFacts {
  items: readonly JsonObject[];
  paged: ReturnType<typeof pageOf>;
  property: string;
  /** The list takes a cursor back (a documented cursor parameter). */
  cursor: boolean;
}
/**
 * Fields that carry the next page's address or token: `next`, `next_page_url`, `nextPageToken` (Google),
 * `NextToken` and `NextMarker` (AWS), `continue` (Kubernetes' `metadata.continue`), `nextLink` (Azure).
 */
const NEXT_NAMES = new Set([
  'next',
  'nextpage',
  'nextpageurl',
  'nexturl',
  'nextcursor',
  'nexttoken',
  'nextpagetoken',
  'continue',
  'continuationtoken',
  'nextlink',
  'odatanextlink',
  'nextmarker',
  'nextkey',
]);
/** Of those, the ones that hold a token to send back (not an address). */
const TOKEN_NAMES = /token$|cursor$|marker$|key$|^continue$/;
const typeAllowsNull = (schema: unknown): boolean =>
  isObject(schema) &&
  (schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null')));

/**
 * The envelope's fields about the list tell the truth, at its top and in an object under it (`meta`,
 * `meta.pagination`): counts, whether more follows, the page and its size, the next page (null on the last page,
 * where the schema allows null) and a `key` naming the list's property (Twilio's SDK reads the list under it).
 */
function tellTruth(out: JsonObject, schema: unknown, list: ListFacts, depth: number): void {
  const props = objectShape(schema)?.properties ?? {};
  const ownCount = `${list.property.toLowerCase()}count`;
  for (const k of Object.keys(out)) {
    const lower = k.toLowerCase();
    const bare = lower.replace(/[_.@-]/g, '');
    const v = out[k];
    if ((COUNT_NAMES.has(lower) || lower === ownCount) && typeof v === 'number') out[k] = list.items.length;
    else if (MORE_NAMES.has(bare) && typeof v === 'boolean') out[k] = list.paged.next !== undefined;
    else if (lower === 'page' && typeof v === 'number') out[k] = list.paged.page ?? 1;
    else if ((lower === 'limit' || lower === 'per_page') && typeof v === 'number')
      out[k] = list.paged.limit ?? list.items.length;
    else if (depth > 0 && lower === 'key' && typeof v === 'string') out[k] = list.property;
    else if (NEXT_NAMES.has(bare)) nextPage(out, k, bare, objectShape(schema), list);
    else if (depth < 2 && isObject(v) && !Array.isArray(v) && k !== list.property) {
      const inner = { ...(v as JsonObject) };
      tellTruth(inner, props[k], list, depth + 1);
      out[k] = inner;
    }
  }
}

/**
 * The next page's field tells the truth: on the last page null where the schema allows it, else left out where
 * it is optional, else empty (a paging client stops on any of them); before the last page a token field holds
 * the cursor the list takes back (the next offset), where the list documents one.
 */
function nextPage(
  out: JsonObject,
  k: string,
  bare: string,
  shape: ObjectShape | null,
  list: ListFacts,
): void {
  const schema = shape?.properties[k];
  if (list.paged.next !== undefined) {
    if (list.cursor && TOKEN_NAMES.test(bare) && typeof out[k] === 'string') out[k] = list.paged.next;
    return;
  }
  if (typeAllowsNull(schema)) out[k] = null;
  else if (!shape?.required.has(k)) delete out[k];
  else if (typeof out[k] === 'string' && !((schema as { minLength?: number } | undefined)?.minLength ?? 0))
    out[k] = '';
}

/** The list as the operation answers it: a plain array, or the envelope with the items in its array property. */
export function presentList(
  op: OperationSpec,
  status: number,
  items: readonly JsonObject[],
  r: Resource,
  query: Record<string, string[]>,
): unknown {
  const schema = schemaOf(op, status);
  const paged = pageOf(items, r.paging, query, (i) => (r.idField ? i[r.idField] : undefined));
  const itemFiller = fillerOf(r.listEnvelope ? r.itemSchema : arrayItems(schema));
  const bare = r.parent || r.key ? paged.items.map(withoutParent) : paged.items;
  const shown = itemFiller ? bare.map((i) => fill(i, itemFiller)) : bare;
  if (!r.listEnvelope) return shown;
  const envelope = sampleOf(schema);
  const out: JsonObject = isObject(envelope) ? { ...envelope } : {};
  out[r.listEnvelope.property] = shown;
  const facts = { items, paged, property: r.listEnvelope.property, cursor: r.paging?.cursor !== undefined };
  tellTruth(out, schema, facts, 0);
  return out;
}

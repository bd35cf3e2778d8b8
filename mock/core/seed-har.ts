/**
 * Pure: stored records built from recorded answers (`petstore-mock --seed-har FILE…`). Lists, reads, creates,
 * replaces and patches answered 2xx give records (the newest answer for an id wins, in recorded order); a 2xx
 * delete removes one. A record is kept only when the document's response view of the resource's item accepts
 * it and the store's create-schema check passes; the others are listed with why, by id. Only answer bodies are read: no header, cookie or query value is ever
 * stored, and the reasons name the rule, never a value.
 */
import { isObject } from '../../spec/json';
import { formatAjvErrors, type CompiledSpec, type OperationSpec } from '../../spec/compile';
import { unwrap, wrapAs } from '../../spec/envelope';
import { matchPath } from '../../spec/http/match';
import { responseText, type HarLikeEntry } from '../../spec/report/har-read';
import type { Action, Resource } from '../../spec/resource-types';
import type { ResourceModel } from '../../spec/resources';
import { seedEntryProblem } from './seed';
import type { JsonObject, SeedData } from './stores/types';

/** A recorded item left out, and why (`pets 7: /name must NOT have fewer than 1 characters`). */
export interface LeftOut {
  resource: string;
  id?: string;
  why: string;
}

export interface HarSeed {
  seed: SeedData;
  /** Records kept, per resource. */
  kept: Record<string, number>;
  leftOut: LeftOut[];
  /** Answers read (2xx of a resource's operation). */
  answers: number;
}

/** Most records taken from traffic per resource (the store's own cap applies too). */
export const MAX_SEEDED = 10_000;

function actionOf(
  model: ResourceModel,
  op: OperationSpec,
): { resource: Resource; action: Action } | undefined {
  for (const resource of model.resources)
    for (const [action, id] of Object.entries(resource.operations))
      if (id === op.operationId) return { resource, action: action as Action };
  return undefined;
}

/** The items an answer carries: a list's items, or the one item of a read or write. */
function itemsOf(resource: Resource, action: Action, body: unknown): unknown[] | undefined {
  if (action === 'list') {
    const list = resource.listEnvelope && isObject(body) ? body[resource.listEnvelope.property] : body;
    return Array.isArray(list) ? list : undefined;
  }
  return ['read', 'create', 'replace', 'patch'].includes(action)
    ? [unwrap(body, resource.envelope)]
    : undefined;
}

/**
 * Why one item cannot be a record, or undefined: the response view of the new document refuses it, or the store's
 * own check (the create schema, as for `--seed`) does (a property the new version newly requires).
 */
function itemProblem(spec: CompiledSpec, resource: Resource, item: unknown): string | undefined {
  return answerProblem(spec, resource, item) ?? seedEntryProblem(spec, resource, item);
}

function answerProblem(spec: CompiledSpec, resource: Resource, item: unknown): string | undefined {
  const readOp = spec.byId.get(resource.operations.read ?? resource.operations.create ?? '');
  const answer = readOp && [...readOp.responses.values()].find((r) => /^2/.test(r.status) && r.validateBody);
  if (answer?.validateBody) {
    const ok = answer.validateBody(wrapAs(answer.schema, resource.envelope, item));
    return ok ? undefined : formatAjvErrors(answer.validateBody.errors, 'record');
  }
  return isObject(item) ? undefined : 'not an object';
}

/** Left-out records by resource and id (the newest reason wins; a later good answer takes it back). */
type LeftOutMap = Map<string, LeftOut>;

/** Keep or leave out each item of one answer: the newest answer for an id decides, as it does for a record. */
function placeItems(
  spec: CompiledSpec,
  resource: Resource,
  items: readonly unknown[],
  bucket: Map<string, JsonObject>,
  leftOut: LeftOutMap,
): void {
  const field = resource.idField ?? '';
  for (const item of items) {
    const id = isObject(item) ? item[field] : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') {
      const why = `an item of the answer has no ${field}`;
      leftOut.set(`${resource.name}\0${why}`, { resource: resource.name, why });
      continue;
    }
    const key = `${resource.name}\0${String(id)}`;
    const problem = itemProblem(spec, resource, item);
    if (!problem && (bucket.has(String(id)) || bucket.size < MAX_SEEDED)) {
      bucket.set(String(id), item as JsonObject);
      leftOut.delete(key);
      continue;
    }
    bucket.delete(String(id)); // the record as last answered cannot be one: an older answer is no better
    leftOut.set(key, {
      resource: resource.name,
      id: String(id),
      why: problem ?? `over ${MAX_SEEDED} records`,
    });
  }
}

/** Records from every entry, in recorded order. */
export function seedFromHar(
  spec: CompiledSpec,
  model: ResourceModel,
  entries: readonly HarLikeEntry[],
): HarSeed {
  const records = new Map<string, Map<string, JsonObject>>();
  const leftOut: LeftOutMap = new Map();
  let answers = 0;
  for (const e of entries) {
    const status = e.response.status;
    if (status < 200 || status >= 300) continue;
    let pathname: string;
    try {
      pathname = new URL(e.request.url, 'http://recorded.invalid').pathname;
    } catch {
      continue;
    }
    const found = matchPath(spec, spec.basePath, e.request.method, pathname);
    const hit = 'operation' in found ? actionOf(model, found.operation) : undefined;
    if (!hit?.resource.idField || !('operation' in found)) continue;
    const { resource, action } = hit;
    answers++;
    const bucket = records.get(resource.name) ?? new Map<string, JsonObject>();
    records.set(resource.name, bucket);
    if (action === 'remove') {
      const id = decodeURIComponent(found.rawParams[found.rawParams.length - 1] ?? '');
      bucket.delete(id);
      leftOut.delete(`${resource.name}\0${id}`);
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(responseText(e) ?? '');
    } catch {
      continue; // no JSON answer recorded (a HAR without bodies, a body cut short)
    }
    placeItems(spec, resource, itemsOf(resource, action, body) ?? [], bucket, leftOut);
  }
  const seed: Record<string, JsonObject[]> = {};
  const kept: Record<string, number> = {};
  for (const [name, bucket] of records) {
    if (bucket.size === 0) continue;
    seed[name] = [...bucket.values()];
    kept[name] = bucket.size;
  }
  return { seed, kept, leftOut: [...leftOut.values()], answers };
}

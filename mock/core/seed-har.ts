/**
 * Pure: stored records built from recorded answers (`petstore-mock --seed-har FILE…`). Lists, reads, creates,
 * replaces and patches answered 2xx give records (the newest answer for an id wins, in recorded order); a 2xx
 * delete removes one. A record is kept only when the document's response view of the resource's item accepts
 * it; the others are listed with why. Only answer bodies are read: no header, cookie or query value is ever
 * stored, and the reasons name the rule, never a value.
 */
import { isObject } from '../../spec/json';
import { formatAjvErrors, type CompiledSpec, type OperationSpec } from '../../spec/compile';
import { unwrap, wrapAs } from '../../spec/envelope';
import { matchPath } from '../../spec/http/match';
import { responseText, type HarLikeEntry } from '../../spec/report/har-read';
import type { Action, Resource } from '../../spec/resource-types';
import type { ResourceModel } from '../../spec/resources';
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

/** Why the response view of one item refuses it, or undefined when it accepts it. */
function itemProblem(spec: CompiledSpec, resource: Resource, item: unknown): string | undefined {
  const readOp = spec.byId.get(resource.operations.read ?? resource.operations.create ?? '');
  const answer = readOp && [...readOp.responses.values()].find((r) => /^2/.test(r.status) && r.validateBody);
  if (answer?.validateBody) {
    const ok = answer.validateBody(wrapAs(answer.schema, resource.envelope, item));
    return ok ? undefined : formatAjvErrors(answer.validateBody.errors, 'record');
  }
  return isObject(item) ? undefined : 'not an object';
}

/** Records from every entry, in recorded order. */
export function seedFromHar(
  spec: CompiledSpec,
  model: ResourceModel,
  entries: readonly HarLikeEntry[],
): HarSeed {
  const records = new Map<string, Map<string, JsonObject>>();
  const leftOut: LeftOut[] = [];
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
    if (!('operation' in found)) continue;
    const hit = actionOf(model, found.operation);
    if (!hit) continue;
    const { resource, action } = hit;
    const field = resource.idField;
    if (!field) continue;
    answers++;
    const bucket = records.get(resource.name) ?? new Map<string, JsonObject>();
    records.set(resource.name, bucket);
    if (action === 'remove') {
      bucket.delete(decodeURIComponent(found.rawParams[found.rawParams.length - 1] ?? ''));
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(responseText(e) ?? '');
    } catch {
      continue; // no JSON answer recorded (a HAR without bodies, a body cut short)
    }
    for (const item of itemsOf(resource, action, body) ?? []) {
      const id = isObject(item) ? item[field] : undefined;
      if (typeof id !== 'string' && typeof id !== 'number') {
        leftOut.push({
          resource: resource.name,
          why: `an item of the ${action} answer has no ${field}`,
        });
        continue;
      }
      const problem = itemProblem(spec, resource, item);
      if (problem) leftOut.push({ resource: resource.name, id: String(id), why: problem });
      else if (bucket.has(String(id)) || bucket.size < MAX_SEEDED) bucket.set(String(id), item as JsonObject);
      else leftOut.push({ resource: resource.name, id: String(id), why: `over ${MAX_SEEDED} records` });
    }
  }
  const seed: Record<string, JsonObject[]> = {};
  const kept: Record<string, number> = {};
  for (const [name, bucket] of records) {
    if (bucket.size === 0) continue;
    seed[name] = [...bucket.values()];
    kept[name] = bucket.size;
  }
  return { seed, kept, leftOut, answers };
}

/**
 * One resource in the document walk, in the order of the one lifecycle walker (lifecycle/plan.ts): the create's
 * id carried into the read back, the list, each change (read back after it), the item's actions, the delete and
 * the read after it.
 * A create documented as a form too is sent once more as a form before the delete.
 */
import { innerSchema, mapItem, unwrap } from '../../spec/envelope';
import { isObject } from '../../spec/json';
import { createdIdOf } from '../../spec/created-id';
import { paramAt } from '../../spec/resource-paths';
import { keyParams, keyParts, recordKey, setAt, valueAt } from '../../spec/resource-key';
import type { Resource } from '../../spec/resources';
import { withoutWriteOnly } from '../../spec/schema-views';
import { notFoundStatus } from '../../spec/statuses';
import { fieldsProblem } from '../build/requests';
import { listShows, namedFields } from './item-views';
import { jsonPatchOf } from '../generate/json-patch';
import { mergePatchPlan } from '../generate/merge-patch';
import {
  lifecycleSteps,
  operationOf,
  writableSchema,
  type LifecycleStep,
  type LifecycleStepName,
} from './plan';
import { bodyFor, documentsForm, isFlat, paramValue } from './walk-requests';
import type { DocumentWalk, WalkStep } from './walk-types';

type Json = Record<string, unknown>;

/** What a create made: its id, the item as answered, the body sent. */
export interface Made {
  id: string;
  item: Json;
  sent: unknown;
}

const parse = (step: WalkStep | undefined): unknown => {
  if (!step || step.status >= 300 || step.responseText === '') return undefined;
  try {
    return JSON.parse(step.responseText) as unknown;
  } catch {
    return undefined;
  }
};

/** The path parameters of one item (and of the parent item a sub-collection's items live under). */
export function itemParams(walk: DocumentWalk, resource: Resource, id: string): Record<string, string> {
  const under = walk.under.get(resource) ?? {};
  // A composite key (`owner/name`) fills each of its parameters: spec/resource-key.ts splits it.
  return resource.itemParam
    ? { ...under, ...(id ? keyParams(resource, id) : { [resource.itemParam]: id }) }
    : { ...under };
}

/** Whether the resource's items are addressed by a key (top-level, nested or composite). */
const keyed = (r: Resource): boolean => keyParts(r).length > 0;

/** POST a generated body; what was stored, or undefined (the step says why). */
export async function createItem(walk: DocumentWalk, resource: Resource): Promise<Made | undefined> {
  const op = operationOf(walk.spec, resource, 'create');
  if (!op) return undefined;
  const params = itemParams(walk, resource, '');
  // The fields the path names (`/metadata/namespace` of `{namespace}`) sent as the path says, as a client would.
  const sent = mapItem(bodyFor(op, walk.random, resource), resource.envelope, (b) =>
    pathValues(resource, b, params),
  );
  const step = await walk.send({ op, label: `${op.operationId} (create)`, params, body: sent });
  if (!step || step.status >= 300) return undefined;
  const json = parse(step);
  const answered = unwrap(json, resource.envelope);
  // Where the document says the id is (the item, a wrapper `{"widgetID": …}`, a Location): spec/created-id.ts.
  const id = keyed(resource) ? createdIdOf(resource, { json, headers: step.responseHeaders }) : undefined;
  if (!isObject(answered) && id === undefined) {
    step.problems.push('the create answered no object');
    return undefined;
  }
  if (!keyed(resource)) return { id: '', item: answered as Json, sent };
  if (id === undefined) {
    step.problems.push(
      `the created item has no ${keyParts(resource)
        .map((k) => k.pointer)
        .join(' + ')}`,
    );
    return undefined;
  }
  // An answer of only the id stands for the item sent, with that id.
  const item =
    isObject(answered) && (resource.idField === undefined || resource.idField in answered)
      ? answered
      : {
          ...(isObject(unwrap(sent, resource.envelope)) ? (unwrap(sent, resource.envelope) as Json) : {}),
          ...(resource.idField === undefined ? {} : { [resource.idField]: id }),
        };
  return { id: String(id), item, sent };
}

/** A sub-collection's parent item (`{slug}` of `/articles/{slug}/comments`), created once for the walk. */
async function parentOf(walk: DocumentWalk, resource: Resource): Promise<boolean> {
  if (!resource.parent || walk.under.has(resource)) return true;
  const parent = walk.model.resources.find((r) => r.name === resource.parent?.name);
  if (!parent?.operations.create) return false;
  const made = await createItem(walk, parent);
  if (!made) return false;
  if (parent.operations.remove) walk.spare.push({ resource: parent, id: made.id });
  // The parent's own parameters last: a composite key (`{owner}/{repo}`) fills each of its parts.
  walk.under.set(resource, { [resource.parent.param]: made.id, ...itemParams(walk, parent, made.id) });
  return true;
}

/** Create, read back, list, change, delete and read again: the steps the document has. */
export async function walkResource(walk: DocumentWalk, resource: Resource): Promise<void> {
  const [create, ...rest] = lifecycleSteps(walk.spec, resource, walk.model);
  if (!create || !(await parentOf(walk, resource))) return;
  const made = await createItem(walk, resource);
  if (!made || !keyed(resource)) return;
  const state: ItemState = { made, current: made.item, formSent: false };
  for (const step of rest) {
    if (step.name === 'delete') await formCreate(walk, resource, state);
    await TAKE[step.name]?.(walk, resource, step, state);
  }
  await formCreate(walk, resource, state);
}

interface ItemState {
  made: Made;
  /** The item as the server last answered it: a JSON Patch tests its members at these values. */
  current: Json;
  formSent: boolean;
}

type Take = (walk: DocumentWalk, r: Resource, step: LifecycleStep, s: ItemState) => Promise<unknown>;

/** What the walk does at each step of the plan, on the item `s` (`delete-again` is the runner's rule alone). */
const TAKE: Partial<Record<LifecycleStepName, Take>> = {
  read: async (walk, r, { op }, s) => {
    const back = await walk.send({
      op,
      label: `${op.operationId} (read back)`,
      params: itemParams(walk, r, s.made.id),
    });
    const idField = r.idField;
    const key = idField === undefined ? {} : { [idField]: s.made.item[idField] };
    expectSame(r, back, { ...itemFields(r, s.made.sent), ...key }, 'read back');
  },
  listed: async (walk, r, { op }, s) => {
    const list = await walk.send({
      op,
      label: `${op.operationId} (listed)`,
      params: itemParams(walk, r, ''),
    });
    if (list && list.status < 300 && !listShows(r, parse(list), s.made.id))
      list.problems.push(`the created item ${s.made.id} is not in the list`);
  },
  replace: change,
  patch: change,
  update: change,
  // An operation on the item (`POST /schedules/{id}/deactivate`): its other path parameters generated.
  action: async (walk, r, { op }, s) => {
    const params = itemParams(walk, r, s.made.id);
    for (const p of op.pathParamSpecs) params[p.name] ??= paramValue(p, walk.random);
    return walk.send({ op, label: op.operationId, params, body: bodyFor(op, walk.random) });
  },
  delete: (walk, r, { op }, s) =>
    walk.send({ op, label: `${op.operationId} (delete)`, params: itemParams(walk, r, s.made.id) }),
  gone: (walk, r, { op }, s) =>
    walk.send({
      op,
      label: `${op.operationId} (after delete)`,
      params: itemParams(walk, r, s.made.id),
      expect: [notFoundStatus(op)],
    }),
};

/** A replace, a patch (merge or JSON Patch) or an update (a collection PUT naming the id), then read back. */
async function change(walk: DocumentWalk, r: Resource, step: LifecycleStep, s: ItemState): Promise<void> {
  const { op, name } = step;
  const params = itemParams(walk, r, s.made.id);
  const patch = name === 'patch' && r.jsonPatch === true ? jsonPatchFor(walk, r, s.current) : undefined;
  let body = patch ? patch.body : bodyFor(op, walk.random, name === 'patch' ? undefined : r, true);
  // A nested key sent in the body (`/metadata/name`) names the item changed: the made item's values.
  if (r.key && name !== 'patch') body = mapItem(body, r.envelope, (b) => keepKey(r, b, s.made.item));
  const idField = r.idField ?? '';
  if (name === 'update') body = mapItem(body, r.envelope, (b) => ({ ...b, [idField]: s.made.item[idField] }));
  const label = `${op.operationId} (${name})`;
  const sent = await walk.send({ op, label, params: name === 'update' ? {} : params, body });
  const answered = unwrap(parse(sent), r.envelope);
  if (isObject(answered)) s.current = answered;
  const read = operationOf(walk.spec, r, 'read');
  if (!read || !sent || sent.status >= 300) return;
  const back = await walk.send({ op: read, label: `${read.operationId} (after ${name})`, params });
  expectSame(r, back, patch ? patch.expected : itemFields(r, body), `after ${name}`);
}

/** A create documented as a form too: once more as a form, read back as what was sent. */
async function formCreate(walk: DocumentWalk, r: Resource, s: ItemState): Promise<void> {
  const create = operationOf(walk.spec, r, 'create');
  if (s.formSent || !create) return;
  s.formSent = true;
  if (!documentsForm(create) || create.requestBody?.kind !== 'json' || !isFlat(s.made.sent)) return;
  const label = `${create.operationId} (create, form)`;
  const step = await walk.send({
    op: create,
    label,
    params: itemParams(walk, r, ''),
    body: s.made.sent,
    form: true,
  });
  const formItem = parse(step);
  const formId = recordKey(r, unwrap(formItem, r.envelope));
  if (formId === undefined) return;
  const read = operationOf(walk.spec, r, 'read');
  if (read) {
    const params = itemParams(walk, r, String(formId));
    const back = await walk.send({ op: read, label: `${read.operationId} (read back, form)`, params });
    expectSame(r, back, itemFields(r, s.made.sent), 'read back after a form create');
  }
  if (r.operations.remove) walk.spare.push({ resource: r, id: String(formId) });
}

/** The members a client set that the answer names (what it never carries, a writeOnly password, left out). */
const itemFields = (r: Resource, sent: unknown): Json =>
  withoutWriteOnly(r.itemSchema, namedFields(r, unwrap(sent, r.envelope))) as Json;

/** A 2xx answer of `step` holds `fields` as they are (read back); else its problem. */
function expectSame(r: Resource, step: WalkStep | undefined, fields: Json, what: string): void {
  if (!step || step.status >= 300) return;
  const problem = fieldsProblem(fields, unwrap(parse(step), r.envelope));
  if (problem) step.problems.push(`${what}: ${problem}`);
}

/** A JSON Patch (RFC 6902) changing one member a client may set, and the members it must then have. */
function jsonPatchFor(
  walk: DocumentWalk,
  r: Resource,
  current: Json,
): { body: unknown; expected: Json } | undefined {
  const schema = innerSchema(writableSchema(walk.spec, r), r.envelope) ?? {};
  const plan = mergePatchPlan(schema, r, current, walk.random, 'walk')[0];
  if (!plan) return undefined;
  return { body: jsonPatchOf(plan.patch, current), expected: plan.patch };
}

/** `body` with the made item's value at each of the key's pointers. */
function keepKey(r: Resource, body: Json, made: Json): Json {
  let out = body;
  for (const part of keyParts(r)) {
    const was = valueAt(made, part.pointer);
    if (was !== undefined) out = setAt(out, part.pointer, was);
  }
  return out;
}

/** `body` with the values of the collection path's parameters at the fields they name. */
function pathValues(r: Resource, body: Json, params: Record<string, string>): Json {
  let out = body;
  for (const f of r.pathFields ?? []) {
    const value = params[paramAt(r.collectionPath, f.depth) ?? ''];
    if (value && valueAt(out, f.pointer) !== undefined) out = setAt(out, f.pointer, value);
  }
  return out;
}

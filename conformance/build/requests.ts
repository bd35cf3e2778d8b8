/** Requests the generated rules share: a body sent as the operation documents it, an item's path, a new item. */
import { isJsonMediaType, type OperationSpec } from '../../spec/load';
import { mapItem, unwrap } from '../../spec/envelope';
import type { Resource } from '../../spec/resources';
import { withoutWriteOnly } from '../../spec/schema-views';
import { successStatuses } from '../../spec/statuses';
import type { Outgoing, SendResult } from '../send/client';
import type { RunContext } from '../send/check-context';
import { generateValid } from '../generate/values';
import type { Exchange, RecordedResponse } from '../types';
import { isObject } from '../../spec/json';
import { seededRandom } from '../../spec/random';
import { writeQuerystring } from '../../spec/http/querystring';
import { createdIdOf } from '../../spec/created-id';
import { encodeBody } from '../generate/encode-body';

export { notFoundStatus, rejectStatuses, successStatuses } from '../../spec/statuses';

/** The JSON media type the operation documents for its body (merge patches keep theirs). */
export function jsonMediaType(op: OperationSpec): string {
  return op.requestBody?.mediaTypes.find(isJsonMediaType) ?? 'application/json';
}

/**
 * `path` with a valid query string when `op` documents an OpenAPI 3.2 `in: querystring` parameter (drawn from
 * its schema, the same each run), so that only what a rule varies decides; else `path` as it is.
 */
export function withQuerystring(op: OperationSpec, path: string): string {
  const raw = validQuerystring(op);
  return raw ? `${path}${path.includes('?') ? '&' : '?'}${raw}` : path;
}

/** The valid 3.2 `in: querystring` value a request carries (seeded: the same each run), if `op` has one. */
export function validQuerystring(op: OperationSpec): string | undefined {
  const spec = op.querystring;
  return spec && writeQuerystring(spec, generateValid(spec.schema, seededRandom(0), 'q', { full: true }));
}

/** How many bodies were built: the sequence number in each one's file names. */
let uploads = 0;

/**
 * A request to `op` at `path` with a body value, under the key: written as the operation documents its body
 * (generate/encode-body.ts: JSON, a form, multipart with small files named by `label` and a sequence number); raw
 * text goes as JSON. A body the runner cannot build makes a request the client skips with the reason, never one
 * sent as JSON.
 */
export function bodyRequest(
  op: OperationSpec,
  path: string,
  body: { json?: unknown; raw?: string; label?: string },
): Outgoing {
  const base = {
    method: op.method.toUpperCase(),
    path: withQuerystring(op, path),
    auth: { use: 'key' as const },
  };
  if (body.raw !== undefined)
    return { ...base, headers: { 'Content-Type': jsonMediaType(op) }, body: body.raw };
  // Each request its own file names: two in flight never write one file (a download reading a file another
  // upload rewrites breaks its own framing), and a name an answer shows names one upload.
  const encoded = encodeBody(op, body.json, `${body.label ?? 'conformance'}-${++uploads}`);
  if ('skip' in encoded) return { ...base, unbuildable: `${op.operationId}: ${encoded.skip}` };
  return { ...base, headers: { 'Content-Type': encoded.contentType }, body: encoded.body };
}

/** The item path of `resource` for `id` (`/pets/{petId}` -> `/pets/7`), for `template` when given. */
export function itemPathOf(resource: Resource, id: string, template = resource.itemPath ?? ''): string {
  return template.replace(`{${resource.itemParam ?? ''}}`, encodeURIComponent(id));
}

/** A sub-collection's requests under one parent item the run made: the context that sends them there. */
export interface WithinParent {
  ctx: RunContext;
  steps: Exchange[];
  /** A path template with the parent's parameter filled (`/articles/{slug}/comments` -> `/articles/abc/comments`). */
  fill: (template: string) => string;
}

/**
 * For a sub-collection (`/articles/{slug}/comments`), create the parent item (and its own parent, if any) and
 * give a context whose client sends every path with the parent's parameter filled; any other resource as is.
 */
export async function withinParent(
  resource: Resource,
  ctx: RunContext,
  depth = 0,
): Promise<WithinParent | { skip: string }> {
  const within: WithinParent = { ctx, steps: [], fill: (t) => t };
  if (!resource.parent) return within;
  const { name, param } = resource.parent;
  const parent = ctx.model.resources.find((r) => r.name === name);
  if (!parent || depth > 4)
    return { skip: `the ${name} item the ${resource.name} live under cannot be made` };
  const outer = await withinParent(parent, ctx, depth + 1);
  if ('skip' in outer) return outer;
  const made = await createItem(parent, outer.ctx, `${resource.name}-parent`);
  if (!made.ok)
    return { skip: `could not create the ${name} item the ${resource.name} live under: ${made.problem}` };
  const fill = (template: string) =>
    outer.fill(template).split(`{${param}}`).join(encodeURIComponent(made.id));
  const client = outer.ctx.client;
  return {
    ctx: {
      ...outer.ctx,
      client: { ...client, send: (out) => client.send(out.path ? { ...out, path: fill(out.path) } : out) },
    },
    steps: [...outer.steps, made.exchange],
    fill,
  };
}

export type Created =
  | { ok: true; id: string; sent: Record<string, unknown>; item: Record<string, unknown>; exchange: Exchange }
  | { ok: false; problem: string; skipped: boolean; exchange?: Exchange };

/** Create one item of `resource` with a full valid body; the id as a string, or why not. */
export async function createItem(resource: Resource, ctx: RunContext, label = 'item'): Promise<Created> {
  const op = resource.operations.create ? ctx.spec.byId.get(resource.operations.create) : undefined;
  if (!op?.requestBody)
    return { ok: false, problem: `the document has no create for ${resource.name}`, skipped: true };
  const sent = withoutClientId(
    resource,
    generateValid(op.requestBody.schema, ctx.random, `${ctx.runPrefix}-${label}`, { full: true }),
  );
  const result = await ctx.client.send(
    bodyRequest(op, op.path, { json: sent, label: `${ctx.runPrefix}-${label}` }),
  );
  const inner = unwrap(sent, resource.envelope);
  return createdFrom(resource, op, result, isObject(inner) ? inner : {});
}

/**
 * A generated create body without an id the client may send: the server assigns one, so two runs (or two
 * cases of one run) never collide on a random id.
 */
export function withoutClientId<T>(resource: Resource | undefined, body: T): T {
  const idField = resource?.idField;
  if (!resource || resource.idSource !== 'client' || !idField || !isObject(body)) return body;
  return mapItem(body, resource.envelope, (item) => {
    const out = { ...item };
    delete out[idField];
    return out;
  }) as T;
}

/** Judge a create's answer: a documented 2xx with an object carrying the id. */
export function createdFrom(
  resource: Resource,
  op: OperationSpec,
  result: SendResult,
  sent: Record<string, unknown>,
): Created {
  if (result.kind === 'skipped')
    return { ok: false, problem: result.reason, skipped: true, exchange: result.exchange };
  if (result.kind === 'error')
    return {
      ok: false,
      problem: `no response: ${result.exchange.error ?? ''}`,
      skipped: false,
      exchange: result.exchange,
    };
  const { response, exchange } = result;
  const where = `${op.operationId} answered ${response.status}`;
  if (!successStatuses(op).includes(String(response.status)))
    return {
      ok: false,
      problem: `${where}, expected ${successStatuses(op).join(' or ')}`,
      skipped: false,
      exchange,
    };
  const answered = unwrap(response.json, resource.envelope);
  // A resource without an id (a create nothing can read back) only needs the object.
  if (isObject(answered) && !resource.idField) return { ok: true, id: '', sent, item: answered, exchange };
  // Where the document says the id is (the item, a wrapper `{"widgetID": …}`, a Location): spec/created-id.ts.
  const id = createdIdOf(resource, response);
  if (id === undefined)
    return {
      ok: false,
      problem: `${where} without the id ${resource.idField ?? ''} in its body`,
      skipped: false,
      exchange,
    };
  // An answer of only the id stands for the item sent, with that id.
  const item =
    isObject(answered) && resource.idField && resource.idField in answered
      ? answered
      : { ...sent, [resource.idField ?? 'id']: id };
  if (resource.idType === 'integer' && typeof id !== 'number')
    return {
      ok: false,
      problem: `${where} with the id ${JSON.stringify(id)}, not an integer`,
      skipped: false,
      exchange,
    };
  return { ok: true, id: String(id), sent, item, exchange };
}
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Each property of `expected` as it is in `actual`, or the first difference. With the answer's schema (a
 * response view), what it never carries (a writeOnly password) is not expected back.
 */
export function fieldsProblem(
  expected: Record<string, unknown>,
  actual: unknown,
  schema?: unknown,
): string | undefined {
  if (!isObject(actual))
    return `the body is ${JSON.stringify(actual)?.slice(0, 80) ?? 'empty'}, not an object`;
  const shown = schema === undefined ? expected : (withoutWriteOnly(schema, expected) as typeof expected);
  for (const [name, value] of Object.entries(shown))
    if (!same(actual[name], value))
      return `${name} is ${JSON.stringify(actual[name])}, expected ${JSON.stringify(value)}`;
  return undefined;
}

/** The items of a list answer: the array itself, or the envelope's array property. */
export function listItems(resource: Resource, res: Pick<RecordedResponse, 'json'>): unknown[] | undefined {
  const body = res.json;
  if (Array.isArray(body)) return body;
  const inner = resource.listEnvelope && isObject(body) ? body[resource.listEnvelope.property] : undefined;
  return Array.isArray(inner) ? inner : undefined;
}

export { isObject };

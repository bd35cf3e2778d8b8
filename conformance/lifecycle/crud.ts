/**
 * Generated from each resource of the document (spec/resources.ts): its lifecycle, an unknown id on every item
 * operation, and a client-sent readOnly property in the create, the replace and the patch.
 */
import type { OperationSpec } from '../../spec/load';
import { mapItem, unwrap, wrapAs } from '../../spec/envelope';
import type { Resource } from '../../spec/resources';
import { objectShape, typesOf, type Schema } from '../../spec/schema-shape';
import { isJsonPatch } from '../../spec/json-patch';
import { errorBodyProblem } from '../../spec/http/error-body';
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import type { RuleId } from '../rules';
import { generateValid } from '../generate/values';
import type { Exchange, Finding } from '../types';
import type { SendResult } from '../send/client';
import { pointerTo } from '../generate/json-patch';
import { crudRuleId, crudRules, crudSteps, readOnlyWrites } from './crud-rules';
import { runLifecycle } from './run-lifecycle';
import {
  bodyRequest,
  createItem,
  isObject,
  itemPathOf,
  notFoundStatus,
  rejectStatuses,
  successStatuses,
  withinParent,
  withoutClientId,
} from '../build/requests';

const ITEM_ACTIONS = ['read', 'replace', 'patch', 'remove'] as const;

/**
 * An id no run creates: the largest 32-bit integer less a little, or a prefixed string; when the item
 * parameter's schema refuses that (`format: uuid`), a value generated from that schema.
 */
function unknownId(resource: Resource, ctx: RunContext): string {
  if (resource.idType === 'integer') return '2147483000';
  const plain = `${ctx.runPrefix}-no-such-${resource.name}`;
  const param = Object.values(resource.operations)
    .map((id) => ctx.spec.byId.get(id ?? ''))
    .flatMap((op) => op?.pathParamSpecs ?? [])
    .find((p) => p.name === resource.itemParam);
  if (!param || param.validate(plain)) return plain;
  const generated = generateValid(param.schema, ctx.random, ctx.runPrefix);
  return typeof generated === 'string' && param.validate(generated) ? generated : plain;
}

/** The check of one resource. */
export function crudCheck(resource: Resource): Check {
  return {
    name: `${resource.name} lifecycle`,
    rules: crudRules(resource).map((r) => r.id),
    // Alone, before the checks that run side by side: a lifecycle reads back what it wrote, and a write to the
    // whole collection meanwhile (LoopBack's `PATCH /todos`, every item) would change its item under it.
    phase: 'first',
    async run(outer: RunContext): Promise<Finding[]> {
      // A sub-collection's lifecycle runs under one parent item the run creates (`/articles/{slug}/comments`).
      const within = await withinParent(resource, outer);
      if ('skip' in within) return crudRules(resource).map((r) => skip(r.id, within.skip));
      const { ctx } = within;
      const findings = await runLifecycle(resource, ctx);
      const steps = crudSteps(resource);
      if (steps.includes('unknown-id-404')) findings.push(...(await unknownIds(resource, ctx)));
      if (steps.includes('read-only-not-stored')) findings.push(...(await readOnlySent(resource, ctx)));
      return findings;
    },
  };
}

/** Every item operation with an id no one created: 404, with the documented error body. */
async function unknownIds(resource: Resource, ctx: RunContext): Promise<Finding[]> {
  const rule = crudRuleId(resource, 'unknown-id-404');
  const findings: Finding[] = [];
  const id = unknownId(resource, ctx);
  // --read-only: the read alone (the writes would be skipped anyway, and would hide the read's verdict).
  const actions = ctx.readOnly ? ITEM_ACTIONS.filter((a) => a === 'read') : ITEM_ACTIONS;
  if (!actions.some((a) => resource.operations[a]))
    return [skip(rule, '--read-only: the item operations all write')];
  for (const action of actions) {
    const opId = resource.operations[action];
    const op = opId ? ctx.spec.byId.get(opId) : undefined;
    if (!op) continue;
    const path = itemPathOf(resource, id, op.path);
    // A valid body, so that a 400 cannot stand in for the 404; its key, where it has one, is the address's own
    // (a server may refuse a body whose id contradicts the path, a rule no document needs to state).
    const out = op.requestBody
      ? bodyRequest(op, path, {
          json: withKey(
            generateValid(op.requestBody.schema, ctx.random, ctx.runPrefix, { full: true }),
            resource,
            id,
          ),
        })
      : { method: op.method.toUpperCase(), path, auth: { use: 'key' as const } };
    const result = await ctx.client.send(out);
    const bad = unusable(rule, result);
    if (bad || result.kind !== 'response') {
      if (bad) findings.push(bad);
      continue;
    }
    const { response, exchange } = result;
    const wanted = notFoundStatus(op);
    const problem =
      response.status !== wanted
        ? `status ${response.status}, expected ${wanted}`
        : errorBodyProblem(ctx.spec, response, op.operationId);
    findings.push(problem ? fail(rule, `${out.method} ${path}: ${problem}`, exchange) : pass(rule, exchange));
  }
  return findings;
}

/** `body` with the resource's key field set to the id in the path, where the body is an object that has it. */
function withKey(body: unknown, resource: Resource, id: string | number): unknown {
  const field = resource.idField;
  if (!field || typeof body !== 'object' || body === null || Array.isArray(body) || !(field in body))
    return body;
  const current = (body as Record<string, unknown>)[field];
  return { ...body, [field]: typeof current === 'number' ? Number(id) : id };
}

/** A value for readOnly `name` that no server assigns by itself: within its schema, recognisably the client's. */
function clientValue(resource: Resource, name: string, ctx: RunContext): unknown {
  const prop = objectShape(resource.itemSchema)?.properties[name] as Schema | undefined;
  if (!prop) return CLIENT_NUMBER;
  const types = typesOf(prop);
  const p = prop as { maximum?: number; format?: string; pattern?: string; enum?: unknown[] };
  const plain = p.enum === undefined && p.pattern === undefined;
  if (plain && types.includes('integer') && (p.maximum ?? Infinity) >= CLIENT_NUMBER) return CLIENT_NUMBER;
  if (plain && types.includes('string') && p.format === undefined) return `${ctx.runPrefix}-client-${name}`;
  return generateValid(prop, ctx.random, `${ctx.runPrefix}-client`);
}
const CLIENT_NUMBER = 987654321;

/** The same value, also when a server writes a number as a string (`"987654321"`). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return false;
  if (JSON.stringify(a) === JSON.stringify(b)) return true;
  return typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b);
}

/**
 * Each readOnly property sent in the create, the replace and the patch (a merge patch, or a JSON Patch `replace`):
 * `read-only-not-stored` (contract) holds when the write is refused (4xx) or answered without the client's value,
 * and a read of the item does not show it either; `read-only-rejected` (assumption) wants the refusal, 400.
 */
async function readOnlySent(resource: Resource, ctx: RunContext): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const name of resource.readOnly) {
    const value = clientValue(resource, name, ctx);
    for (const action of readOnlyWrites(resource))
      findings.push(...(await sendReadOnly(resource, ctx, action, name, value)));
  }
  return findings;
}

/** The body of `op` with readOnly `name` set to `value`. */
function bodyWithReadOnly(
  resource: Resource,
  op: OperationSpec,
  ctx: RunContext,
  name: string,
  value: unknown,
): unknown {
  if (isJsonPatch(op)) return [{ op: 'replace', path: pointerTo(name), value }];
  const schema = op.requestBody?.schema ?? {};
  const body = withoutClientId(
    resource,
    generateValid(schema, ctx.random, `${ctx.runPrefix}-read-only`, { full: true }),
  );
  const set = mapItem(body, resource.envelope, (item) => ({ ...item, [name]: value }));
  return set === body && !isObject(body) ? wrapAs(schema, resource.envelope, { [name]: value }) : set;
}

async function sendReadOnly(
  resource: Resource,
  ctx: RunContext,
  action: 'create' | 'replace' | 'patch',
  name: string,
  value: unknown,
): Promise<Finding[]> {
  const notStored = crudRuleId(resource, 'read-only-not-stored');
  const rejected = crudRuleId(resource, 'read-only-rejected');
  const both = (f: (rule: RuleId) => Finding): Finding[] => [f(notStored), f(rejected)];
  const op = ctx.spec.byId.get(resource.operations[action] ?? '');
  if (!op) return [];
  const steps: Exchange[] = [];
  let path = op.path;
  let itemId: string | undefined;
  if (action !== 'create') {
    const made = await createItem(resource, ctx, 'read-only-target');
    if (!made.ok) {
      const why = `could not create the ${resource.name} item to ${action}: ${made.problem}`;
      return both((rule) => skip(rule, why, made.exchange));
    }
    steps.push(made.exchange);
    itemId = made.id;
    path = itemPathOf(resource, made.id, op.path);
  }
  const result = await ctx.client.send(
    bodyRequest(op, path, { json: bodyWithReadOnly(resource, op, ctx, name, value) }),
  );
  if (result.kind !== 'response') return both((rule) => unusable(rule, result) ?? skip(rule, 'no response'));
  const { response, exchange } = result;
  const what = `${op.operationId} with "${name}" set to ${JSON.stringify(value)}`;
  const wanted = rejectStatuses(op);
  const success = successStatuses(op).includes(String(response.status));
  const findings: Finding[] = [
    wanted.includes(response.status)
      ? pass(rejected, exchange)
      : fail(
          rejected,
          `${what}: status ${response.status}, expected ${wanted.join(' or ')}${success ? ' (accepted)' : ''}`,
          exchange,
          [...steps],
        ),
  ];
  steps.push(exchange);
  const problem = await storedProblem(resource, ctx, { action, name, value, itemId, success }, result, steps);
  findings.push(
    problem ? fail(notStored, `${what}: ${problem}`, exchange, steps) : pass(notStored, exchange),
  );
  return findings;
}

/** Why the client's readOnly value counts as stored (undefined: refused, or ignored by the answer and a read). */
async function storedProblem(
  resource: Resource,
  ctx: RunContext,
  sent: { action: string; name: string; value: unknown; itemId?: string; success: boolean },
  result: Extract<SendResult, { kind: 'response' }>,
  steps: Exchange[],
): Promise<string | undefined> {
  const { status } = result.response;
  if (status >= 400 && status < 500) return undefined;
  if (!sent.success) return `status ${status}: neither a refusal (4xx) nor a documented 2xx`;
  const answered = unwrap(result.response.json, resource.envelope);
  if (isObject(answered) && sameValue(answered[sent.name], sent.value))
    return `accepted (${status}) and the answer carries the client's ${sent.name}: the server kept it`;
  const idField = resource.idField;
  const answeredId = idField && isObject(answered) ? answered[idField] : undefined;
  const id =
    sent.itemId ??
    (typeof answeredId === 'string' || typeof answeredId === 'number' ? String(answeredId) : '');
  const readOp = ctx.spec.byId.get(resource.operations.read ?? '');
  if (!readOp || !id) return undefined;
  const path = itemPathOf(resource, id, readOp.path);
  const read = await ctx.client.send({ method: 'GET', path, auth: { use: 'key' } });
  if (read.kind !== 'response') return undefined;
  steps.push(read.exchange);
  if (!successStatuses(readOp).includes(String(read.response.status)))
    return `accepted (${status}), then GET ${path} answered ${read.response.status}: the item moved or was lost`;
  const item = unwrap(read.response.json, resource.envelope);
  if (isObject(item) && sameValue(item[sent.name], sent.value))
    return `accepted (${status}), and a read of the item shows the client's ${sent.name}: the server kept it`;
  return undefined;
}

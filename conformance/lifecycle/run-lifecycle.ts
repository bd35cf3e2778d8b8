/**
 * A resource's lifecycle, one step after another on one item the run creates: create -> read -> listed ->
 * replace -> merge patch -> delete -> read is 404 -> delete again is 404. A step that fails leaves the steps
 * that depend on it skipped with that reason; every failure carries the exchanges that led to it.
 */
import type { OperationSpec } from '../../spec/load';
import { innerSchema, unwrap, wrapAs } from '../../spec/envelope';
import type { Resource } from '../../spec/resources';
import type { Action } from '../../spec/resource-types';
import type { Outgoing } from '../send/client';
import { fail, pass, skip, type RunContext } from '../send/check-context';
import { generateValid } from '../generate/values';
import { objectShape } from '../../spec/schema-shape';
import type { Exchange, Finding, RecordedResponse } from '../types';
import { crudRuleId, crudSteps, type CrudStep } from './crud-rules';
import {
  bodyRequest,
  createdFrom,
  fieldsProblem,
  isObject,
  itemPathOf,
  listItems,
  notFoundStatus,
  successStatuses,
  withoutClientId,
  withQuerystring,
} from '../build/requests';
import { mergePatchPlan } from '../generate/merge-patch';
import { jsonPatchOf } from '../generate/json-patch';
import { lifecycleSteps, operationOf, writableSchema } from './plan';
import { listShows, namedFields } from './item-views';

interface Run {
  ctx: RunContext;
  resource: Resource;
  steps: Exchange[];
  findings: Finding[];
  /** Why the rest cannot run (an earlier step failed or was skipped). */
  blocked?: string;
}

type Judge = (res: RecordedResponse) => string | undefined;

interface Outcome {
  held: boolean;
  response?: RecordedResponse;
}

/**
 * Send one step; its verdict becomes a finding of `name`'s rule. Without an answer (or without the item, when the
 * create fails) the remaining steps are skipped; any other failure is reported and the lifecycle goes on.
 */
async function step(run: Run, name: CrudStep, out: Outgoing, judge: Judge): Promise<Outcome> {
  const rule = crudRuleId(run.resource, name);
  if (run.blocked) {
    run.findings.push(skip(rule, run.blocked));
    return { held: false };
  }
  const result = await run.ctx.client.send(out);
  const before = [...run.steps];
  if (result.exchange) run.steps.push(result.exchange);
  if (result.kind === 'skipped') {
    run.findings.push(skip(rule, result.reason, result.exchange));
    run.blocked = `an earlier step was skipped: ${result.reason}`;
    return { held: false };
  }
  if (result.kind === 'error') {
    run.findings.push(fail(rule, `no response: ${result.exchange.error ?? ''}`, result.exchange, before));
    run.blocked = `${rule} got no response`;
    return { held: false };
  }
  const problem = judge(result.response);
  if (problem) {
    run.findings.push(fail(rule, `${out.method} ${out.path ?? ''}: ${problem}`, result.exchange, before));
    if (name === 'create') run.blocked = `${rule} failed, so there is no item to go on with`;
    return { held: false, response: result.response };
  }
  run.findings.push(pass(rule, result.exchange));
  return { held: true, response: result.response };
}

/** What a read answered, as the state the next steps expect (server-assigned fields left out). */
function stateFrom(
  resource: Resource,
  body: unknown,
  fallback: Record<string, unknown>,
): Record<string, unknown> {
  body = unwrap(body, resource.envelope);
  if (!isObject(body)) return fallback;
  return Object.fromEntries(
    Object.entries(body).filter(([k]) => !resource.readOnly.includes(k) && k !== resource.idField),
  );
}

const statusIs =
  (op: OperationSpec): Judge =>
  (res) => {
    const ok = successStatuses(op);
    return ok.includes(String(res.status)) ? undefined : `status ${res.status}, expected ${ok.join(' or ')}`;
  };
/** 404, or the operation's documented 400 where it documents no 404 (nor 4XX, nor default). */
const notFound =
  (op: OperationSpec | undefined): Judge =>
  (res) => {
    const wanted = op ? notFoundStatus(op) : 404;
    return res.status === wanted ? undefined : `status ${res.status}, expected ${wanted}`;
  };
const both =
  (a: Judge, b: Judge): Judge =>
  (res) =>
    a(res) ?? b(res);

/** Run the lifecycle of `resource`; findings for each of its lifecycle rules. */
export async function runLifecycle(resource: Resource, ctx: RunContext): Promise<Finding[]> {
  const has = new Set(crudSteps(resource));
  const op = (action: Action) => operationOf(ctx.spec, resource, action);
  const create = op('create');
  if (!create?.requestBody || !has.has('create')) return [];
  const run: Run = { ctx, resource, steps: [], findings: [] };
  const inside = (v: unknown): unknown => unwrap(v, resource.envelope);
  const wrapped = withoutClientId(
    resource,
    generateValid(create.requestBody.schema, ctx.random, `${ctx.runPrefix}-${resource.name}`, {
      full: true,
    }) as Record<string, unknown>,
  );
  const made = await createItem(run, create, wrapped);
  const { id } = made;
  let state: Record<string, unknown> = made.state;
  const path = itemPathOf(resource, id);
  const read = op('read');
  const readBack = (): Outgoing => ({ method: 'GET', path, auth: { use: 'key' } });
  const sameItem =
    (expected: () => Record<string, unknown>): Judge =>
    (res) => {
      const body = inside(res.json);
      return (
        statusIs(read as OperationSpec)(res) ??
        (isObject(body) && String(body[resource.idField ?? '']) !== id
          ? `another item: ${resource.idField} is ${JSON.stringify(body[resource.idField ?? ''])}, expected ${id}`
          : fieldsProblem(expected(), body, resource.itemSchema))
      );
    };

  // The one lifecycle walker's order (lifecycle/plan.ts); the runner has no rule for an update (a collection PUT).
  for (const { name, op: stepOp } of lifecycleSteps(ctx.spec, resource).slice(1)) {
    if (name === 'read' && has.has('read'))
      await step(
        run,
        'read',
        readBack(),
        sameItem(() => state),
      );
    if (name === 'listed' && has.has('listed'))
      await step(
        run,
        'listed',
        { method: 'GET', path: withQuerystring(stepOp, stepOp.path), auth: { use: 'key' } },
        (res) => {
          const items = listItems(resource, res);
          if (!items) return `status ${res.status}; the answer holds no list of items`;
          return (
            statusIs(stepOp)(res) ??
            (listShows(resource, res.json, id)
              ? undefined
              : `no item with ${resource.idField} ${id} among ${items.length}`)
          );
        },
      );
    if (name === 'replace' && stepOp.requestBody && has.has('replace'))
      state = await replaceItem(run, stepOp, path, id, state, read ? readBack : undefined, sameItem);
    if (name === 'patch' && stepOp.requestBody && (has.has('merge-patch') || has.has('json-patch')))
      state = await mergePatch(run, stepOp, path, state, read ? readBack : undefined, sameItem);
    if (name === 'delete' && has.has('delete'))
      await step(run, 'delete', { method: 'DELETE', path, auth: { use: 'key' } }, statusIs(stepOp));
    if (name === 'gone' && has.has('delete-then-404'))
      await step(run, 'delete-then-404', readBack(), notFound(stepOp));
    if (name === 'delete-again' && has.has('delete-again-404'))
      await step(run, 'delete-again-404', { method: 'DELETE', path, auth: { use: 'key' } }, notFound(stepOp));
  }
  return run.findings;
}

/**
 * The create step: the full body first; after a 5xx, once more with only the fields the schema requires (an
 * optional field the server cannot serve, such as an address its geocoder must find, is a finding of the first
 * try, and the lifecycle goes on with the item the second makes). The id made, and the item as sent.
 */
async function createItem(
  run: Run,
  create: OperationSpec,
  wrapped: Record<string, unknown>,
): Promise<{ id: string; state: Record<string, unknown> }> {
  const { resource } = run;
  let id = '';
  const attempt = async (body: Record<string, unknown>) => {
    const sent = (unwrap(body, resource.envelope) ?? {}) as Record<string, unknown>;
    const out = await step(run, 'create', bodyRequest(create, create.path, { json: body }), (res) => {
      const exchange = run.steps[run.steps.length - 1] as Exchange;
      const made = createdFrom(resource, create, { kind: 'response', response: res, exchange }, sent);
      if (!made.ok) return made.problem;
      id = made.id;
      // Only what the answer's schema names can come back; an answer of only the id stands for the item sent.
      return fieldsProblem(namedFields(resource, sent), made.item, resource.itemSchema);
    });
    return { out, sent };
  };
  const first = await attempt(wrapped);
  const fewer =
    first.out.response && first.out.response.status >= 500 ? requiredOnly(create, run) : undefined;
  if (!fewer || !first.out.response) return { id, state: first.out.response ? { ...first.sent } : {} };
  run.blocked = undefined;
  const second = await attempt(withoutClientId(resource, fewer));
  return { id, state: second.out.response ? { ...second.sent } : {} };
}

/** A create body of the required fields only (inside the envelope where the document wraps it), or undefined. */
function requiredOnly(create: OperationSpec, run: Run): Record<string, unknown> | undefined {
  const { resource, ctx } = run;
  const schema = create.requestBody?.schema ?? {};
  const item = innerSchema(schema, resource.envelope) ?? schema;
  const shape = objectShape(item);
  if (!shape || Object.keys(shape.properties).length <= shape.required.size) return undefined;
  const full = generateValid(item, ctx.random, `${ctx.runPrefix}-${resource.name}-required`, {
    full: true,
  }) as Record<string, unknown>;
  const kept = Object.fromEntries(Object.entries(full).filter(([k]) => shape.required.has(k)));
  return wrapAs(schema, resource.envelope, kept) as Record<string, unknown>;
}

/** Replace the item with new values; the answer and the read after it show them. */
async function replaceItem(
  run: Run,
  replace: OperationSpec,
  path: string,
  id: string,
  state: Record<string, unknown>,
  readBack: (() => Outgoing) | undefined,
  sameItem: (expected: () => Record<string, unknown>) => Judge,
): Promise<Record<string, unknown>> {
  const { resource, ctx } = run;
  const schema = replace.requestBody?.schema ?? {};
  const next = generateValid(
    innerSchema(schema, resource.envelope) ?? schema,
    ctx.random,
    `${ctx.runPrefix}-${resource.name}-replaced`,
    { full: true },
  ) as Record<string, unknown>;
  // The body never names another item than the path does (a client-chosen id such as a username).
  const idField = resource.idField ?? '';
  if (idField in next) next[idField] = state[idField] ?? (resource.idType === 'integer' ? Number(id) : id);
  const put = await step(
    run,
    'replace',
    bodyRequest(replace, path, { json: wrapAs(schema, resource.envelope, next) }),
    both(statusIs(replace), (res) =>
      res.json === undefined
        ? undefined
        : fieldsProblem(next, unwrap(res.json, resource.envelope), resource.itemSchema),
    ),
  );
  if (!put.response) return state;
  // A replace that is not stored shows on the next read; later steps go on from what is stored.
  if (!readBack) return { ...next };
  const back = await step(
    run,
    'replace',
    readBack(),
    sameItem(() => next),
  );
  return back.held ? { ...next } : stateFrom(resource, back.response?.json, { ...next });
}

/** Patch one field (and null out an optional nullable one); the read shows exactly those changes. */
async function mergePatch(
  run: Run,
  patch: OperationSpec,
  path: string,
  state: Record<string, unknown>,
  readBack: (() => Outgoing) | undefined,
  sameItem: (expected: () => Record<string, unknown>) => Judge,
): Promise<Record<string, unknown>> {
  const envelope = run.resource.envelope;
  const schema = patch.requestBody?.schema ?? {};
  // A JSON Patch changes what a create (or replace) may set; its own schema is the list of operations.
  const json = run.resource.jsonPatch === true;
  const name: CrudStep = json ? 'json-patch' : 'merge-patch';
  const writable = json ? (writableSchema(run.ctx.spec, run.resource) ?? {}) : schema;
  const plans = mergePatchPlan(
    innerSchema(writable, envelope) ?? writable,
    run.resource,
    state,
    run.ctx.random,
    `${run.ctx.runPrefix}-patched`,
  );
  if (plans.length === 0) {
    run.findings.push(skip(crudRuleId(run.resource, name), 'no property of the patch schema can be changed'));
    return state;
  }
  let current = state;
  for (const plan of plans) {
    const expected = plan.expect(current);
    const body = json ? jsonPatchOf(plan.patch, current) : wrapAs(schema, envelope, plan.patch);
    const sentPatch = await step(
      run,
      name,
      bodyRequest(patch, path, { json: body }),
      both(statusIs(patch), (res) => {
        const body = unwrap(res.json, envelope);
        return body === undefined
          ? undefined
          : (fieldsProblem(expected, body, run.resource.itemSchema) ?? plan.absent(body));
      }),
    );
    if (!sentPatch.response) return current;
    current = expected;
    if (readBack) {
      const judge = sameItem(() => expected);
      const back = await step(
        run,
        name,
        readBack(),
        (res) => judge(res) ?? plan.absent(unwrap(res.json, envelope)),
      );
      if (!back.held) return stateFrom(run.resource, back.response?.json, current);
    }
  }
  return current;
}

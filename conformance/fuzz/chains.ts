/**
 * Stateful chains: a seeded random walk over one resource's operations (create, read, replace, list, delete, and
 * writes without a valid credential or with an invalid body), judged against the walk's own model of what is
 * stored: available after create, an update is read back, a refused write changes nothing, gone after delete,
 * ids never reused. The first broken expectation ends the walk; its steps are the evidence.
 */
import { unwrap } from '../../spec/envelope';
import type { Resource } from '../../spec/resource-types';
import { recordKey } from '../../spec/resource-key';
import { notFoundStatus, successStatuses } from '../../spec/statuses';
import { fail, pass, type RunContext } from '../send/check-context';
import type { RuleId } from '../rules';
import { generateValid } from '../generate/values';
import { withRunPrefix } from './run-prefix';
import {
  bodyRequest,
  createdFrom,
  fieldsProblem,
  isObject,
  listItems,
  withoutClientId,
  withQuerystring,
} from '../build/requests';
import type { Finding } from '../types';
import {
  needsItem,
  opOf,
  pick,
  readBack,
  send,
  shuffled,
  statusProblem,
  chainSteps,
  type Step,
  type Walk,
} from './chain-state';
import { noKeyWrite, replace } from './chain-writes';
import { stepPath } from '../lifecycle/plan';

/** A walk of `length` steps; one finding for `rule`. */
export async function chainWalk(
  ctx: RunContext,
  resource: Resource,
  rule: RuleId,
  random: () => number,
  length: number,
): Promise<Finding> {
  const w: Walk = {
    ctx,
    resource,
    random,
    live: new Map(),
    gone: new Map(),
    seen: new Set(),
    steps: [],
    n: 0,
  };
  // Every kind of step the resource has (lifecycle/plan.ts) once, in a random order, before the walk goes where
  // it likes.
  const kinds = chainSteps(ctx.spec, resource);
  const deck: Step[] = ['create', ...shuffled(kinds, random)];
  let previous: Step | undefined;
  for (let i = 0; i < length; i++) {
    // create, delete, create: the delete frees the newest id there is, and it must not come back.
    let wanted = previous === 'delete' ? 'create' : (deck.shift() ?? pick(kinds, random) ?? 'create');
    if (wanted === 'delete' && previous !== 'create') {
      deck.unshift('delete');
      wanted = 'create';
    }
    const next = w.live.size > 0 || !needsItem(wanted) ? wanted : 'create';
    previous = next;
    const problem = await runStep(w, next);
    if (problem === 'skipped') break;
    if (problem)
      return fail(
        rule,
        `step ${i + 1} (${next}): ${problem}`,
        w.steps[w.steps.length - 1],
        w.steps.slice(-8, -1),
      );
  }
  return pass(rule, w.steps[w.steps.length - 1]);
}

async function runStep(w: Walk, step: Step): Promise<string | undefined> {
  if (step === 'create') return create(w);
  if (step === 'list') return list(w);
  if (step === 'no-key-write') return noKeyWrite(w);
  const id = pick([...w.live.keys()], w.random) as string;
  if (step === 'read') return readBack(w, id, 'read');
  // The newest item: deleting it is what frees an id a careless server hands out again.
  if (step === 'delete') return remove(w, [...w.live.keys()].pop() ?? id);
  return replace(w, id, step === 'bad-replace');
}

async function create(w: Walk): Promise<string | undefined> {
  const op = opOf(w, 'create');
  if (!op?.requestBody) return undefined;
  const body = withRunPrefix(
    withoutClientId(
      w.resource,
      generateValid(op.requestBody.schema, w.random, `fz-chain-${(w.n++).toString(36)}`, { full: true }),
    ),
    op.requestBody.schema,
    w.ctx.runPrefix,
    op.requestBody.validate,
  );
  const result = await w.ctx.client.send(bodyRequest(op, op.path, { json: body }));
  if (result.kind === 'skipped') return 'skipped';
  w.steps.push(result.exchange);
  const inner = unwrap(body, w.resource.envelope);
  const made = createdFrom(w.resource, op, result, isObject(inner) ? inner : {});
  if (!made.ok) return made.problem;
  if (w.seen.has(made.id))
    return `the new item got the id ${made.id}, which an earlier item of this walk had (ids are never reused)`;
  w.seen.add(made.id);
  w.live.set(made.id, made.sent);
  return readBack(w, made.id, 'available after create');
}

async function remove(w: Walk, id: string): Promise<string | undefined> {
  const op = opOf(w, 'remove');
  const read = opOf(w, 'read');
  if (!op) return undefined;
  const res = await send(w, {
    method: 'DELETE',
    path: stepPath(w.resource, { op }, id),
    auth: { use: 'key' },
  });
  if (!res) return 'skipped';
  const problem = statusProblem(op, res, successStatuses(op).map(Number), `delete (${id})`);
  if (problem || !read) return problem;
  w.gone.set(id, w.live.get(id) ?? {});
  w.live.delete(id);
  const back = await send(w, {
    method: 'GET',
    path: stepPath(w.resource, { op: read }, id),
    auth: { use: 'key' },
  });
  if (!back) return 'skipped';
  const other = back.status === 200 && !isDeleted(w, id, unwrap(back.json, w.resource.envelope));
  return other
    ? reused(id, back.json)
    : statusProblem(read, back, [notFoundStatus(read)], `gone after delete (${id})`);
}

async function list(w: Walk): Promise<string | undefined> {
  const op = opOf(w, 'list');
  if (!op || op.path.includes('{')) return undefined;
  const res = await send(w, { method: 'GET', path: withQuerystring(op, op.path), auth: { use: 'key' } });
  if (!res) return 'skipped';
  const problem = statusProblem(op, res, successStatuses(op).map(Number), 'list');
  if (problem) return problem;
  // Each listed item's key read as the create's was (a nested or composite key too: spec/resource-key.ts).
  const keyOf = (i: unknown) => (isObject(i) ? recordKey(w.resource, i) : undefined);
  const shown = (listItems(w.resource, res) ?? []).find((i) => w.gone.has(keyOf(i) ?? ''));
  const key = keyOf(shown);
  if (key === undefined) return undefined;
  return isDeleted(w, key, shown)
    ? `the list still shows the deleted item ${JSON.stringify(shown).slice(0, 120)}`
    : reused(key, shown);
}

/** Whether `item` is the one the walk deleted under `id` (else another item took its id). */
function isDeleted(w: Walk, id: string, item: unknown): boolean {
  const expected = w.gone.get(id) ?? {};
  return fieldsProblem(expected, item, w.resource.itemSchema) === undefined;
}

const reused = (id: string, item: unknown): string =>
  `the id ${id} of a deleted item is in use again (ids are never reused): ${JSON.stringify(item).slice(0, 120)}`;

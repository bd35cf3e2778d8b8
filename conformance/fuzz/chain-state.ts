/** The state of a stateful chain (fuzz/chains.ts): its model of what is stored, and the steps every walk shares. */
import type { Action, Resource } from '../../spec/resource-types';
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import { unwrap } from '../../spec/envelope';
import { successStatuses } from '../../spec/statuses';
import type { RunContext } from '../send/check-context';
import type { Outgoing } from '../send/client';
import { fieldsProblem, isObject } from '../build/requests';
import { lifecycleSteps, operationOf, stepPath, type LifecycleStepName } from '../lifecycle/plan';
import type { Exchange, RecordedResponse } from '../types';

export type Item = Record<string, unknown>;
export type Step = 'create' | 'read' | 'replace' | 'bad-replace' | 'list' | 'delete' | 'no-key-write';

export interface Walk {
  ctx: RunContext;
  resource: Resource;
  random: () => number;
  live: Map<string, Item>;
  /** Deleted items by id, as they were. */
  gone: Map<string, Item>;
  seen: Set<string>;
  steps: Exchange[];
  n: number;
}

const STEPS: Step[] = ['create', 'read', 'replace', 'bad-replace', 'list', 'delete', 'no-key-write'];

/** The chain's steps of each lifecycle step (lifecycle/plan.ts); writes without a credential are the chain's own. */
const OF_LIFECYCLE: Partial<Record<LifecycleStepName, Step[]>> = {
  create: ['create'],
  read: ['read'],
  replace: ['replace', 'bad-replace'],
  listed: ['list'],
  delete: ['delete'],
};

/** The steps a chain on `resource` can take: those of its lifecycle the document has, in the order of STEPS. */
export function chainSteps(spec: Pick<LoadedSpec, 'byId' | 'operations'>, resource: Resource): Step[] {
  const has = new Set(lifecycleSteps(spec, resource).flatMap((s) => OF_LIFECYCLE[s.name] ?? []));
  return STEPS.filter((step) => step === 'no-key-write' || has.has(step));
}
export const needsItem = (s: Step) => !['create', 'list', 'no-key-write'].includes(s);

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export const pick = <T>(items: readonly T[], random: () => number): T | undefined =>
  items[Math.floor(random() * items.length)];

/** The operation of `action` on the walk's resource (lifecycle/plan.ts). */
export const opOf = (w: Walk, action: Action): OperationSpec | undefined =>
  operationOf(w.ctx.spec, w.resource, action);

/** Send one request of the walk through the runner's client; undefined when the pacer skipped it. */
export async function send(w: Walk, out: Outgoing): Promise<RecordedResponse | undefined> {
  const result = await w.ctx.client.send(out);
  if (result.kind === 'skipped') return undefined;
  w.steps.push(result.exchange);
  return result.kind === 'response'
    ? result.response
    : { status: 0, headers: {}, body: result.exchange.error ?? '' };
}

export function statusProblem(
  op: OperationSpec,
  res: RecordedResponse,
  wanted: number[],
  what: string,
): string | undefined {
  return wanted.includes(res.status)
    ? undefined
    : `${op.operationId} ${what}: status ${res.status}, expected ${wanted.join(' or ')}`;
}

export async function readBack(w: Walk, id: string, why: string): Promise<string | undefined> {
  const op = opOf(w, 'read');
  if (!op) return undefined;
  const res = await send(w, {
    method: 'GET',
    path: stepPath(w.resource, { op }, id),
    auth: { use: 'key' },
  });
  if (!res) return 'skipped';
  const expected = w.live.get(id) ?? {};
  const named = isObject(w.resource.itemSchema.properties) ? w.resource.itemSchema.properties : expected;
  const shown = Object.fromEntries(Object.entries(expected).filter(([k]) => k in named));
  return (
    statusProblem(op, res, successStatuses(op).map(Number), `${why} (${id})`) ??
    fieldsProblem(shown, unwrap(res.json, w.resource.envelope), w.resource.itemSchema)?.replace(
      /^/,
      `${why} (${id}): `,
    )
  );
}

/** The largest page the list documents (its limit parameter's maximum), so that a new item is on it. */
export function pageQuery(resource: Resource, list: OperationSpec): Record<string, string> {
  const name = resource.paging?.limit;
  const max = list.queryParams.find((p) => p.name === name)?.schema.maximum;
  return name && typeof max === 'number' ? { [name]: String(max) } : {};
}

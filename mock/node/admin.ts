/**
 * The mock's own admin routes outside /v1, for test runs and shared deployments: `GET /_mock/health` (liveness:
 * the process answers) and `GET /_mock/ready` (readiness: it can serve, its store answers), both always served
 * and never counted; `GET /_mock/state`, `POST /_mock/reset`, `POST /_mock/limits/reset` (every ban and counter
 * forgotten, records kept) (off with --no-admin; who may call them is decided in ./routes.ts; served, they are
 * never counted nor refused by a ban).
 */
import type { Reply } from '../core/context';
import { serviceUnavailable } from '../core/errors';
import { StoreUnavailableError } from '../core/stores/types';
import type { NodeDeps as Deps } from './deps';
import { keyQuotas } from '../core/quotas';

/** When each limiter's counters and bans were last forgotten (the inspector lists refusals after it only). */
const lifted = new WeakMap<object, number>();
export const liftedAt = (deps: Deps): number => lifted.get(deps.limiter) ?? 0;

/** Forget every counter and ban. */
async function resetLimits(deps: Deps): Promise<void> {
  await deps.limiter.reset();
  lifted.set(deps.limiter, Date.now());
}

/** Drop every record but the seed, and every counter and ban. */
export async function resetState(deps: Deps): Promise<void> {
  await deps.records.reset(deps.seed, deps.model.resources);
  await resetLimits(deps);
  deps.listCache.clear();
}

/** Every resource's records, by name. */
export async function allRecords(deps: Deps): Promise<Record<string, readonly unknown[]>> {
  const out: Record<string, readonly unknown[]> = {};
  for (const r of deps.model.resources) out[r.name] = await deps.records.list(r.name);
  return out;
}

async function state(deps: Deps): Promise<Reply> {
  return { status: 200, body: { ...(await allRecords(deps)), keys: await keyQuotas(deps) } };
}

/**
 * Readiness: one read of the store (a round trip to Redis, at most its command timeout; at once while it is
 * known to be down). 503 in the Error shape with Retry-After while it is unreachable, so a balancer or an
 * orchestrator routes around this process; liveness (/_mock/health) stays 200, as the process itself is fine.
 */
async function ready(deps: Deps): Promise<Reply> {
  try {
    await deps.records.version(deps.model.resources[0]?.name ?? '_ready');
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    return serviceUnavailable(2);
  }
  return { status: 200, body: { status: 'ready' } };
}

export interface AdminRoute {
  method: 'GET' | 'POST';
  /** `open`: anyone (health, ready); `read`: shows state; `write`: changes state. */
  access: 'open' | 'read' | 'write';
  run: (deps: Deps) => Promise<Reply>;
}

export const ADMIN_ROUTES: ReadonlyMap<string, AdminRoute> = new Map<string, AdminRoute>([
  [
    '/_mock/health',
    { method: 'GET', access: 'open', run: async () => ({ status: 200, body: { status: 'ok' } }) },
  ],
  ['/_mock/ready', { method: 'GET', access: 'open', run: ready }],
  ['/_mock/state', { method: 'GET', access: 'read', run: state }],
  [
    '/_mock/limits/reset',
    {
      method: 'POST',
      access: 'write',
      // Lifts every ban and forgets every counter (the address a local user tests from included); records stay.
      run: async (deps) => {
        await resetLimits(deps);
        return { status: 200, body: { status: 'limits reset' } };
      },
    },
  ],
  [
    '/_mock/reset',
    {
      method: 'POST',
      access: 'write',
      run: async (deps) => {
        await resetState(deps);
        const seeded = Object.fromEntries(Object.entries(deps.seed).map(([k, v]) => [k, v.length]));
        return { status: 200, body: { status: 'reset', ...seeded } };
      },
    },
  ],
]);

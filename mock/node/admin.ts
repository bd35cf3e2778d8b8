/**
 * The mock's own admin routes outside /v1, for test runs and shared deployments: `GET /_mock/health` (liveness:
 * the process answers) and `GET /_mock/ready` (readiness: its store answers; 503 while it cannot), both always
 * served and never counted; `GET /_mock/state`, `POST /_mock/reset`, `GET /_mock/limits` (the callers banned or
 * limited now, each with its end), `POST /_mock/limits/lift?caller=LABEL` (one caller's ban and counts
 * forgotten), `POST /_mock/limits/reset` (every ban and counter forgotten, records kept), `GET /_mock/callbacks`
 * (callbacks and webhooks sent), `GET /_mock/webhooks` (the document's webhooks and what sends each) and
 * `POST /_mock/webhooks/{name}` (one sent now) (off with --no-admin; who may call them is decided in ./routes.ts;
 * served, they are never counted nor refused by a ban).
 */
import { isIP } from 'node:net';
import type { Ctx, Reply } from '../core/context';
import { apiError, invalidRequest, serviceUnavailable } from '../core/errors';
import { listWebhooks, sendWebhook, WEBHOOKS_PREFIX } from './webhook-routes';
import { StoreUnavailableError } from '../core/stores/types';
import { parseQuery } from '../core/query';
import { addressSubject } from '../core/stages/identify';
import type { NodeDeps as Deps } from './deps';
import { keyQuotas } from '../core/quotas';
import { resetEngineState } from '../core/reset-state';

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
  await resetEngineState(deps);
  lifted.set(deps.limiter, Date.now());
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

/** Most held callers `GET /_mock/limits` and the inspector show (the stores track up to MAX_HELD_TRACKED). */
export const HELD_SHOWN = 100;

/** A held caller as the admin routes and the inspector show it: by its label, never by its key. */
export interface HeldView {
  /** The key's label (`free:4a55ea81`, `pro:ci`) or `anonymous@ADDRESS`: what `lift?caller=` takes. */
  caller: string;
  plan: string;
  state: 'banned' | 'limited';
  untilMs: number;
  until: string;
}

/** Each key's label and plan by its rate-limit subject. */
function keysBySubject(deps: Deps): Map<string, { label: string; plan: string }> {
  return new Map(deps.keyring.entries().map((k) => [k.subject, { label: k.label, plan: k.plan }]));
}

/** The callers the limiter holds back now, labelled; at most HELD_SHOWN. */
export async function heldCallers(deps: Deps): Promise<{ callers: HeldView[]; truncated: boolean }> {
  const out = await deps.limiter.held(deps.clock.now(), HELD_SHOWN);
  const keys = keysBySubject(deps);
  const callers = out.callers.map((c): HeldView => {
    const key = keys.get(c.subject);
    const caller =
      key?.label ?? (c.subject.startsWith('addr:') ? `anonymous@${c.subject.slice(5)}` : 'a removed key');
    return {
      caller,
      plan: key?.plan ?? (c.subject.startsWith('addr:') ? 'anonymous' : 'unknown'),
      state: c.state,
      untilMs: c.untilMs,
      until: new Date(c.untilMs).toISOString(),
    };
  });
  return { callers, truncated: out.truncated };
}

/** Pure: the rate-limit subject a caller label names (a key's label, `anonymous@ADDRESS`), or undefined. */
export function subjectOf(
  caller: string,
  keys: readonly { label: string; subject: string }[],
): string | undefined {
  const key = keys.find((k) => k.label === caller);
  if (key) return key.subject;
  if (!caller.startsWith('anonymous@')) return undefined;
  const address = caller.slice('anonymous@'.length);
  // As listed (`127.0.0.1`, `2001:db8:0:0::/64`), or an address as the recent requests show it.
  if (isIP(address) !== 0) return addressSubject(address);
  return /^[0-9a-f:]+::\/64$/i.test(address) ? `addr:${address}` : undefined;
}

async function liftOne(deps: Deps, ctx: Ctx): Promise<Reply> {
  const callers = parseQuery(ctx.req.query).caller ?? [];
  const caller = callers[0];
  if (callers.length !== 1 || !caller)
    return invalidRequest(
      'name one caller: POST /_mock/limits/lift?caller=LABEL (a label GET /_mock/limits lists)',
    );
  const subject = subjectOf(caller, deps.keyring.entries());
  const shown = caller.length > 200 ? `${caller.slice(0, 200)}…` : caller;
  if (!subject || !(await deps.limiter.lift(subject, deps.clock.now())))
    return apiError(
      'not_found',
      `no caller ${JSON.stringify(shown)} is banned or limited now (GET /_mock/limits lists them)`,
    );
  return { status: 200, body: { status: 'lifted', caller } };
}

/** The admin route at `path`: one of ADMIN_ROUTES, or a webhook's on-demand send. */
export function adminRoute(path: string): AdminRoute | undefined {
  const route = ADMIN_ROUTES.get(path);
  if (route) return route;
  if (path.startsWith(WEBHOOKS_PREFIX) && path.length > WEBHOOKS_PREFIX.length)
    return { method: 'POST', access: 'write', run: sendWebhook };
  return undefined;
}

export interface AdminRoute {
  method: 'GET' | 'POST';
  /** `open`: anyone (health, ready); `read`: shows state; `write`: changes state. */
  access: 'open' | 'read' | 'write';
  run: (deps: Deps, ctx: Ctx) => Promise<Reply>;
}

export const ADMIN_ROUTES: ReadonlyMap<string, AdminRoute> = new Map<string, AdminRoute>([
  [
    '/_mock/health',
    { method: 'GET', access: 'open', run: async () => ({ status: 200, body: { status: 'ok' } }) },
  ],
  ['/_mock/ready', { method: 'GET', access: 'open', run: ready }],
  ['/_mock/state', { method: 'GET', access: 'read', run: state }],
  [
    '/_mock/callbacks',
    {
      method: 'GET',
      access: 'read',
      // Every callback and webhook sent (or refused, dropped) and its answer, newest first (issue 33).
      run: async (deps) => ({ status: 200, body: { callbacks: deps.callbacks?.list() ?? [] } }),
    },
  ],
  ['/_mock/webhooks', { method: 'GET', access: 'read', run: async (deps) => listWebhooks(deps) }],
  [
    '/_mock/limits',
    {
      method: 'GET',
      access: 'read',
      run: async (deps) => ({ status: 200, body: { ...(await heldCallers(deps)), max: HELD_SHOWN } }),
    },
  ],
  // Lifts one caller's ban, refusals and window counts (the others keep theirs); records stay.
  ['/_mock/limits/lift', { method: 'POST', access: 'write', run: liftOne }],
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

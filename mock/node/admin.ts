/**
 * Stage: the mock's own routes outside /v1, for test runs and shared deployments:
 * `GET /_mock/health`, `GET /_mock/state`, `POST /_mock/reset`. Off with --no-admin; guarded by --admin-token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { apiError, methodNotAllowed } from '../core/errors';
import type { Reply, Stage } from '../core/context';
import type { NodeDeps as Deps } from './deps';
import { keyQuotas } from '../core/quotas';

const sha = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Pure: does `authorization` carry the admin token (compared in constant time)? */
export function hasAdminToken(authorization: string | undefined, token: string): boolean {
  const m = /^bearer\s+(.+)$/i.exec(authorization ?? '');
  return m?.[1] !== undefined && timingSafeEqual(sha(m[1].trim()), sha(token));
}

/** Drop every record but the seed, and every counter and ban. */
export async function resetState(deps: Deps): Promise<void> {
  await deps.records.reset(deps.seed, deps.model.resources);
  await deps.limiter.reset();
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

const ROUTES: Record<string, { method: string; run: (deps: Deps) => Promise<Reply> }> = {
  '/_mock/health': { method: 'GET', run: async () => ({ status: 200, body: { status: 'ok' } }) },
  '/_mock/state': { method: 'GET', run: state },
  '/_mock/reset': {
    method: 'POST',
    run: async (deps) => {
      await resetState(deps);
      const seeded = Object.fromEntries(Object.entries(deps.seed).map(([k, v]) => [k, v.length]));
      return { status: 200, body: { status: 'reset', ...seeded } };
    },
  },
};

/** Synchronous for every other path: the API's requests pass this stage without a promise. */
export const admin: Stage<Deps> = function admin(ctx, deps) {
  const route = ROUTES[ctx.req.path];
  if (!deps.config.admin || !route) return { next: ctx };
  if (
    deps.config.adminToken &&
    !hasAdminToken(String(ctx.req.headers.authorization ?? ''), deps.config.adminToken)
  ) {
    return { reply: apiError('forbidden', 'the mock admin routes need the admin token'), ctx };
  }
  if (ctx.req.method !== route.method)
    return { reply: methodNotAllowed(ctx.req.method, ctx.req.path, [route.method]), ctx };
  return route.run(deps).then((reply) => ({ reply, ctx }));
};

/**
 * The one place that knows the order of the stages. Each stage returns the next context or a final reply;
 * a reply stops the chain. Anything thrown is a bug: it becomes a 500 error reply, never a dead process.
 * The Node layer adds its own stages (admin routes, pages) at two hooks: before the rate limit (operational
 * routes that are never counted) and after it.
 */
import { internalError, serviceUnavailable } from './errors';
import type { Ctx, Deps, MockRequest, Reply, Stage } from './context';
import { StoreUnavailableError } from './stores/types';
import { identify } from './stages/identify';
import { rateLimit } from './stages/rate-limit';
import { requireHost } from './stages/require-host';
import { preflight } from './stages/cors';
import { route } from './stages/route';
import { authorize } from './stages/authorize';
import { readBody } from './stages/read-body';
import { validate } from './stages/validate';
import { handle } from './stages/handle';

export interface StageHooks<D extends Deps> {
  /** Run before counting: routes that must never spend or be refused by a quota (health, docs assets). */
  beforeLimit?: readonly Stage<D>[];
  /** Run after counting, before preflight and routing: the mock's own routes outside the base path. */
  afterLimit?: readonly Stage<D>[];
}

/** identify never rejects; rateLimit runs before route and auth so 401/404 carry the headers too. */
export function buildStages<D extends Deps>(hooks: StageHooks<D> = {}): Stage<D>[] {
  return [
    identify,
    ...(hooks.beforeLimit ?? []),
    rateLimit,
    requireHost,
    // The hooks' routes answer their own preflights (the admin routes refuse them: no CORS there).
    ...(hooks.afterLimit ?? []),
    preflight,
    route,
    authorize,
    readBody,
    validate,
    handle,
  ];
}

/** The engine's own stages, with no hooks (the fetch and MSW adapters). */
export const STAGES: readonly Stage[] = buildStages();

export interface PipelineResult {
  reply: Reply;
  ctx: Ctx;
  /** Set when a stage threw: the adapter logs it. */
  error?: unknown;
}

/** Run `req` through every stage until one replies. */
export async function runPipeline<D extends Deps>(
  req: MockRequest,
  deps: D,
  stages: readonly Stage<D>[] = STAGES,
): Promise<PipelineResult> {
  const ctx: Ctx = { req };
  try {
    for (const stage of stages) {
      const returned = stage(ctx, deps);
      // Most stages are synchronous: awaiting only real promises saves a microtask per stage on the hot path.
      const out = returned instanceof Promise ? await returned : returned;
      if ('reply' in out) return out;
    }
    throw new Error('no stage replied');
  } catch (error) {
    if (error instanceof StoreUnavailableError) return { reply: serviceUnavailable(2), ctx };
    return { reply: internalError(), ctx, error };
  }
}

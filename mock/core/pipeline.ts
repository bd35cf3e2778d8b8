/**
 * The one place that knows the order of the stages. Each stage returns the next context or a final reply;
 * a reply stops the chain. Anything thrown is a bug: it becomes a 500 error reply, never a dead process.
 * The Node layer adds its own stages (admin routes, pages) at two hooks: before the rate limit (operational
 * routes that are never counted) and after it.
 */
import { internalError, serviceUnavailable } from './errors';
import type { Ctx, Deps, MockRequest, Reply, Stage, StageOutcome } from './context';
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
import { delay, fault } from './stages/inject';

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
    delay,
    authorize,
    readBody,
    validate,
    fault,
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

/** A stage threw: a store that is down is a 503, anything else a bug (a 500 the adapter logs). */
function failed(error: unknown, ctx: Ctx): PipelineResult {
  if (error instanceof StoreUnavailableError) return { reply: serviceUnavailable(2), ctx };
  return { reply: internalError(), ctx, error };
}

/**
 * Run `req` through every stage until one replies. Synchronous while every stage is (a store in memory): the
 * result itself, no promise and no microtask per stage; from the first stage that returns a promise on, the
 * rest runs asynchronously and the result is a promise.
 */
export function runPipeline<D extends Deps>(
  req: MockRequest,
  deps: D,
  stages: readonly Stage<D>[] = STAGES,
): PipelineResult | Promise<PipelineResult> {
  const ctx: Ctx = { req };
  try {
    for (let i = 0; i < stages.length; i++) {
      const out = (stages[i] as Stage<D>)(ctx, deps);
      if (out instanceof Promise) return finish(out, i + 1, ctx, deps, stages);
      if ('reply' in out) return out;
    }
    throw new Error('no stage replied');
  } catch (error) {
    return failed(error, ctx);
  }
}

/** The rest of the pipeline once a stage returned a promise. */
async function finish<D extends Deps>(
  pending: Promise<StageOutcome>,
  from: number,
  ctx: Ctx,
  deps: D,
  stages: readonly Stage<D>[],
): Promise<PipelineResult> {
  try {
    let out = await pending;
    for (let i = from; !('reply' in out); i++) {
      const stage = stages[i];
      if (!stage) throw new Error('no stage replied');
      const returned = stage(ctx, deps);
      out = returned instanceof Promise ? await returned : returned;
    }
    return out;
  } catch (error) {
    return failed(error, ctx);
  }
}

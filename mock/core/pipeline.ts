/**
 * The one place that knows the order of the stages. Each stage returns the next context or a final reply;
 * a reply stops the chain. Anything thrown is a bug: it becomes a 500 Error reply, never a dead process.
 */
import { internalError, serviceUnavailable } from './errors';
import type { Ctx, Deps, MockRequest, Reply, Stage } from './context';
import { StoreUnavailableError } from './stores/types';
import { identify } from './stages/identify';
import { rateLimit } from './stages/rate-limit';
import { requireHost } from './stages/require-host';
import { preflight } from './stages/cors';
import { admin } from '../node/admin';
import { route } from './stages/route';
import { authorize } from './stages/authorize';
import { validate } from './stages/validate';
import { handle } from './stages/handle';
import { ui } from '../node/ui/stage';

/** identify never rejects; rateLimit runs before route and auth so 401/404 carry the headers too. */
export const STAGES: readonly Stage[] = [
  identify,
  rateLimit,
  requireHost,
  preflight,
  admin,
  ui,
  route,
  authorize,
  validate,
  handle,
];

export interface PipelineResult {
  reply: Reply;
  ctx: Ctx;
  /** Set when a stage threw: the adapter logs it. */
  error?: unknown;
}

/** Run `req` through every stage until one replies. */
export async function runPipeline(
  req: MockRequest,
  deps: Deps,
  stages: readonly Stage[] = STAGES,
): Promise<PipelineResult> {
  let ctx: Ctx = { req };
  try {
    for (const stage of stages) {
      const returned = stage(ctx, deps);
      // Most stages are synchronous: awaiting only real promises saves a microtask per stage on the hot path.
      const out = returned instanceof Promise ? await returned : returned;
      if ('reply' in out) return out;
      ctx = out.next;
    }
    throw new Error('no stage replied');
  } catch (error) {
    if (error instanceof StoreUnavailableError) return { reply: serviceUnavailable(2), ctx };
    return { reply: internalError(), ctx, error };
  }
}

/**
 * The one place that knows the order of the stages. Each stage takes the context as far as the earlier ones
 * brought it and gives the context for the next, typed by what is now known (mock/core/context.ts), or a reply,
 * which stops the chain. The chain is composed once, and `then` only joins a stage that gives what the next one
 * needs: a stage put before its prerequisite does not compile. Anything thrown is a bug: it becomes a 500 error
 * reply, never a dead process. The Node layer adds its own stages (admin routes, pages) at two hooks: before
 * the rate limit (operational routes that are never counted) and after it.
 */
import { internalError, serviceUnavailable } from './errors';
import {
  replied,
  type CallerCtx,
  type CountedCtx,
  type Ctx,
  type Deps,
  type FinalStage,
  type MockRequest,
  type Outcome,
  type Replied,
  type Stage,
} from './context';
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
  beforeLimit?: readonly Stage<CallerCtx, CallerCtx, D>[];
  /** Run after counting, before preflight and routing: the mock's own routes outside the base path. */
  afterLimit?: readonly Stage<CountedCtx, CountedCtx, D>[];
}

/** The whole chain, composed: a request's fresh context in, always a reply out. */
export type Pipeline<D extends Deps = Deps> = FinalStage<Ctx, D>;

const isPromise = <T>(v: T | Promise<T>): v is Promise<T> => v instanceof Promise;

/**
 * `first`, then `rest` with the context it gave; a reply stops there. Synchronous while both are: no promise
 * and no microtask per stage; from the first stage that returns a promise on, the rest runs after it.
 */
export function then<A extends Ctx, B extends Ctx, D extends Deps>(
  first: Stage<A, B, D>,
  rest: FinalStage<B, D>,
): FinalStage<A, D> {
  return function chained(ctx, deps) {
    const out = first(ctx, deps);
    if (isPromise(out)) return out.then((o: Outcome<B>) => (replied(o) ? o : rest(o, deps)));
    return replied(out) ? out : rest(out, deps);
  };
}

/** Several stages that keep the context's type, in order, before `rest`. */
function thenAll<C extends Ctx, D extends Deps>(
  stages: readonly Stage<C, C, D>[],
  rest: FinalStage<C, D>,
): FinalStage<C, D> {
  return stages.reduceRight<FinalStage<C, D>>((next, stage) => then(stage, next), rest);
}

/** identify never rejects; rateLimit runs before route and auth so 401/404 carry the headers too. */
export function buildPipeline<D extends Deps>(hooks: StageHooks<D> = {}): Pipeline<D> {
  const routed = then(
    route,
    then(delay, then(authorize, then(readBody, then(validate, then(fault, handle))))),
  );
  // The hooks' routes answer their own preflights (the admin routes refuse them: no CORS there).
  const counted = then(requireHost, thenAll(hooks.afterLimit ?? [], then(preflight, routed)));
  return then(identify, thenAll(hooks.beforeLimit ?? [], then(rateLimit, counted)));
}

/** The engine's own stages, with no hooks (the fetch and MSW adapters). */
export const PIPELINE: Pipeline = buildPipeline();

export interface PipelineResult {
  reply: Replied['reply'];
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
 * Run `req` through the pipeline until a stage replies. The result itself while every stage answers at once (a
 * store in memory), else a promise of it.
 */
export function runPipeline<D extends Deps>(
  req: MockRequest,
  deps: D,
  pipeline: Pipeline<D> = PIPELINE,
): PipelineResult | Promise<PipelineResult> {
  // Every field the stages may set, declared at once: one shape for every request's context.
  const ctx: Ctx = {
    req,
    identity: undefined,
    limitHeaders: undefined,
    operation: undefined,
    bound: undefined,
    binding: undefined,
    params: undefined,
    query: undefined,
    body: undefined,
    input: undefined,
    preferStatus: undefined,
    preferExample: undefined,
    preferDynamic: undefined,
    delayMs: undefined,
    injected: undefined,
  };
  try {
    const out = pipeline(ctx, deps);
    return isPromise(out) ? out.catch((error: unknown) => failed(error, ctx)) : out;
  } catch (error) {
    return failed(error, ctx);
  }
}

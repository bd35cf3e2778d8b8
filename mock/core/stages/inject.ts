/**
 * Stages: latency and faults on demand (issue 33). Both run only for requests routed to an operation of the
 * document: the mock's own routes (`/_mock/*`, the pages) are answered by earlier stages and never reach them.
 * - `delay` (after route): `Prefer: delay=MS` (at most MAX_PREFER_DELAY_MS, else a 400), else the operation's
 *   latency setting, else `--latency`; the adapter holds whatever answer follows back that long.
 * - `fault` (after validate, before handle: a fault stores nothing): with the operation's fault rate, one of
 *   its documented 5xx or 429 in its documented shape, or a reset connection.
 */
import { decideFault, drawDelay } from '../chaos';
import type { Ctx, Deps, ReadCtx, Reply, RoutedCtx, Stage } from '../context';
import { apiError } from '../errors';
import { checkDelay, parsePrefer } from '../prefer';
import { exampleReply } from '../example-reply';

const header = (v: string | string[] | undefined): string | undefined =>
  Array.isArray(v) ? v.join(', ') : v;

const note = (ctx: Ctx, what: string): void => {
  (ctx.injected ??= []).push(what);
};

export const delay: Stage<RoutedCtx> = function delay(ctx, deps) {
  const prefer = header(ctx.req.headers.prefer);
  const asked = prefer ? checkDelay(parsePrefer(prefer).delay) : undefined;
  if (asked && 'problem' in asked) return { reply: apiError('invalid_prefer', asked.problem), ctx };
  let ms = asked?.ms;
  if (ms === undefined) {
    const range = ctx.bound.chaos.latency;
    if (range) ms = drawDelay(range, deps.random);
  }
  if (ms !== undefined && ms > 0) {
    ctx.delayMs = ms;
    note(ctx, `delay ${ms}ms`);
  }
  return ctx;
};

/** The answer of an injected fault: the documented example of that status, else an error in its shape. */
export function faultReply(ctx: RoutedCtx, deps: Pick<Deps, 'config'>, status: number): Reply {
  const operation = ctx.operation;
  const documented = exampleReply(operation, status);
  const headers = { ...documented.headers };
  if (status === 503 || status === 429) headers['Retry-After'] = headers['Retry-After'] ?? '1';
  if (documented.body !== undefined) return { ...documented, headers };
  return {
    status,
    headers,
    error: {
      code: 'injected_fault',
      message: `an injected fault: ${status} is documented by ${operation.operationId} (--faults ${deps.config.faults})`,
    },
  };
}

export const fault: Stage<ReadCtx> = function fault(ctx, deps) {
  const chosen = decideFault(ctx.operation, ctx.bound.chaos.faults, deps.random);
  if (!chosen) return ctx;
  if (chosen.kind === 'reset') {
    note(ctx, 'reset');
    return { reply: { status: 0, reset: true }, ctx };
  }
  note(ctx, `fault ${chosen.status}`);
  return { reply: faultReply(ctx, deps, chosen.status), ctx };
};

/**
 * Stage: RFC 9112 §3.2: an HTTP/1.1 request without a Host header gets 400. Node would refuse it with a bare
 * 400 of its own; here it is the Error shape with the rate-limit headers like every other answer.
 */
import { apiError } from '../errors';
import type { CountedCtx, Stage } from '../context';

export const requireHost: Stage<CountedCtx> = function requireHost(ctx) {
  if (ctx.req.httpVersion !== '1.1' || ctx.req.headers.host !== undefined) return ctx;
  return { reply: apiError('bad_request', 'an HTTP/1.1 request needs a Host header'), ctx };
};

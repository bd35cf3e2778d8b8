/**
 * Stage: read the body, only now that identity, rate limit, route and auth are decided: a refused caller's body
 * is never buffered (the adapter discards it). At most --max-body-bytes are kept; a larger body is flagged. An
 * operation that documents no body reads one only when it came with a Content-Type (to refuse it: 415).
 */
import type { Stage } from '../context';

const EMPTY = new Uint8Array(0);

/** Synchronous unless there is a body still to read from the transport. */
export const readBody: Stage = function readBody(ctx, deps) {
  const { req } = ctx;
  if (req.body) {
    ctx.body = {
      bytes: req.body.length > deps.config.maxBodyBytes ? EMPTY : req.body,
      tooLarge: req.body.length > deps.config.maxBodyBytes,
    };
    return { next: ctx };
  }
  // An operation without a documented body reads one only to refuse it (spec/http/request-body.ts): bytes sent
  // with a Content-Type, unless the settings say `unexpectedBody: ignore`.
  const refusable =
    req.headers['content-type'] !== undefined && deps.config.policy.unexpectedBody !== 'ignore';
  if ((!ctx.operation?.requestBody && !refusable) || !req.readBody) {
    ctx.body = { bytes: EMPTY, tooLarge: false };
    return { next: ctx };
  }
  return req.readBody(deps.config.maxBodyBytes).then((read) => {
    // The client went away mid-body: nothing to answer, nothing stored.
    if (!read) return { reply: { status: 499, raw: EMPTY }, ctx };
    ctx.body = read;
    return { next: ctx };
  });
};

/**
 * Stage: read the body, only now that identity, rate limit, route and auth are decided: a refused caller's body
 * is never buffered (the adapter discards it). At most --max-body-bytes are kept; a larger body is flagged. An
 * operation that documents no body reads one only when it came with a Content-Type (to refuse it: 415).
 */
import type { BodyRead, ReadCtx, RoutedCtx, Stage } from '../context';

const EMPTY = new Uint8Array(0);
/** No body (most requests): one value for all of them, never changed. */
const NO_BODY = Object.freeze({ bytes: EMPTY, tooLarge: false });

/** The context with its body set (on the one context: its shape is declared whole in runPipeline). */
function withBody(ctx: RoutedCtx, body: BodyRead): ReadCtx {
  const read = ctx as ReadCtx;
  read.body = body;
  return read;
}

/** Synchronous unless there is a body still to read from the transport. */
export const readBody: Stage<RoutedCtx, ReadCtx> = function readBody(ctx, deps) {
  const { req } = ctx;
  if (req.body) {
    const tooLarge = req.body.length > deps.config.maxBodyBytes;
    return withBody(ctx, { bytes: tooLarge ? EMPTY : req.body, tooLarge });
  }
  // An operation without a documented body reads one only to refuse it (spec/http/request-body.ts): bytes sent
  // with a Content-Type, unless the settings say `unexpectedBody: ignore`.
  const refusable =
    req.headers['content-type'] !== undefined && deps.config.policy.unexpectedBody !== 'ignore';
  if ((!ctx.operation.requestBody && !refusable) || !req.readBody) return withBody(ctx, NO_BODY);
  return req.readBody(deps.config.maxBodyBytes).then((read) =>
    // The client went away mid-body: nothing to answer, nothing stored.
    read ? withBody(ctx, read) : { reply: { status: 499, raw: EMPTY }, ctx },
  );
};

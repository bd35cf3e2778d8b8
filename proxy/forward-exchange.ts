/**
 * An exchange's trip upstream and back: the request forwarded (its body as read, or streamed on when over the
 * judged size), the answer read whole and judged before it is passed on, or streamed (over the size, or a live
 * stream) and judged when it ends. Streams keep back-pressure both ways; when either side fails the other goes.
 */
import http from 'node:http';
import { pipeline } from 'node:stream';
import { matchBasePath } from '../spec/base-path';
import type { LoadedSpec } from '../spec/load';
import { streamKindOf, wholeItems, type StreamKind } from '../spec/http/stream-format';
import type { UpstreamRule } from './judge/judge';
import type { Exchange } from './exchange';
import { resetClient } from './exchange';
import { backwardHeaders, forwardHeaders, requestFor, upstreamOptions } from './forward';
import type { OwnAnswers } from './own-answers';
import { readLimited, type LimitedRead } from './read-limited';
import type { ErrorCode } from '../spec/error-codes';

/** What forwarding needs from the proxy's options. */
export interface ForwardContext {
  spec: LoadedSpec;
  upstream: URL;
  timeoutMs: number;
  maxBodyBytes: number;
  preserveHost: boolean;
  answers: OwnAnswers;
}

/** The request as `--callbacks-relay` rewrote it (its callback URLs pointing at the relay). */
export interface Rewritten {
  search: string;
  headers: http.IncomingHttpHeaders;
  body?: Buffer;
}

/** Send `x` upstream with the body `read`; its answer goes back to the client and `x` is finished. */
export function forward(
  x: Exchange,
  read: LimitedRead,
  c: ForwardContext,
  failed: AbortSignal | undefined,
  rewritten?: Rewritten,
): void {
  const { req, res } = x;
  const client = req.socket.remoteAddress ?? '';
  const headers = forwardHeaders(
    rewritten?.headers ?? req.headers,
    c.upstream,
    client,
    c.preserveHost,
    'http',
  );
  const rest = matchBasePath(x.path, c.spec.basePath) ?? x.path;
  const target = upstreamOptions(c.upstream, rest, rewritten?.search ?? x.search);
  let up: http.ClientRequest;
  try {
    up = requestFor(c.upstream)({ ...target, method: req.method, headers });
  } catch (err) {
    // Node refuses to send it (a header or path it will not write): the client's request, not the upstream.
    return x.failByClient(400, 'bad_request', (err as Error).message);
  }
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  const settle = (): boolean => {
    if (settled || x.clientFault) return false;
    settled = true;
    clearTimeout(timer);
    return true;
  };
  const fail = (rule: UpstreamRule, status: number, code: ErrorCode, message: string) => {
    // A request whose client vanished mid-body failed on the client's side, whatever the upstream saw.
    if (req.destroyed && !req.complete) return void (settle() && x.finish({ kind: 'gone' }));
    if (!settle()) return;
    up.destroy();
    x.finish({ kind: 'upstream', rule, status, message });
    if (res.headersSent) resetClient(res);
    else x.reply(status, code, message, x.problems.length + 1);
  };
  // The client went away before its answer ended, or its own request failed: the upstream request goes too.
  const gone = () => {
    if (settle()) x.finish({ kind: 'gone' });
    up.destroy();
  };
  res.once('close', () => {
    if (!res.writableFinished) gone();
  });
  failed?.addEventListener('abort', gone, { once: true });
  // The upstream's time runs once it has the whole request: a client still sending is the client's delay.
  const startTimer = () => {
    if (settled) return;
    const message = `the upstream did not answer within ${c.timeoutMs} ms`;
    timer = setTimeout(() => fail('upstream.timeout', 504, 'gateway_timeout', message), c.timeoutMs);
  };
  // Read whole (or none sent), the request is all there, though Node may not have marked it complete yet.
  if (!read.tooLarge || req.complete) startTimer();
  else req.once('end', startTimer);
  up.on('error', () => fail('upstream.reachable', 502, 'bad_gateway', 'the upstream cannot be reached'));
  up.on('response', (answer) => {
    answer.on('error', () => undefined);
    c.answers.remember(req.headers, client, answer.headers, req.socket);
    // A stream (SSE, JSON Lines) may never end: passed on as it comes, judged when it ends (issue 33).
    const kind = streamKindOf(String(answer.headers['content-type'] ?? ''));
    if (kind && req.method !== 'HEAD' && !answer.headers['content-encoding']) {
      if (!settle()) return void answer.destroy();
      return liveStream(x, answer, kind, c.maxBodyBytes);
    }
    const declared = req.method === 'HEAD' ? undefined : answer.headers['content-length'];
    const encoding = headerText(answer.headers['content-encoding']);
    void readLimited(answer, c.maxBodyBytes, encoding, declared).then(
      (body) => {
        if (!settle()) return void answer.destroy();
        passOn(x, answer, body, c);
      },
      () => fail('upstream.complete', 502, 'bad_gateway', 'the upstream closed the answer early'),
    );
  });
  for (const chunk of rewritten?.body ? [rewritten.body] : read.chunks) up.write(chunk);
  if (!read.tooLarge) return void up.end();
  // A request body over the limit: the rest streams with back-pressure; a failure on either side ends both.
  pipeline(req, up, () => undefined);
}

/**
 * An answer read up to the judged size: judged (its head only when it is over the size), then passed on: read
 * whole, in one write framed by its length; over the size, what was read and then the rest piped. Enforce mode
 * refuses an answer whose judged part breaks the contract.
 */
function passOn(x: Exchange, up: http.IncomingMessage, body: LimitedRead, c: ForwardContext): void {
  const status = up.statusCode ?? 502;
  const unjudged = body.tooLarge || body.unjudged !== undefined;
  const response = {
    status,
    headers: flatHeaders(up.headers),
    body: unjudged ? undefined : body.text,
    bodyTooLarge: unjudged,
  };
  const oversize = `the body is over --max-body-bytes (${c.maxBodyBytes}) and was not judged`;
  const found = x.finish({
    kind: 'answered',
    response,
    enforceable: true,
    ...(body.tooLarge ? { unjudged: { rule: 'upstream.body-size', message: oversize } } : {}),
  });
  const violations = x.problems.length + found.length;
  if (found.length > 0 && x.enforce) {
    up.destroy();
    const message = `the upstream's answer breaks the contract: ${found.map((p) => `${p.rule}: ${p.message}`).join('; ')}`;
    return x.reply(502, 'bad_gateway', message, violations);
  }
  const headers = backwardHeaders(up.headers);
  headers['contract-violations'] = String(violations);
  if (body.tooLarge) headers['contract-judged'] = 'body over --max-body-bytes, not judged';
  else if (body.unjudged) headers['contract-judged'] = body.unjudged;
  if (body.tooLarge) return stream(x, up, body, headers, c.timeoutMs);
  // Transfer-Encoding is hop-by-hop: the body read whole goes framed by its length.
  const whole = body.chunks.length === 1 ? (body.chunks[0] as Buffer) : Buffer.concat(body.chunks);
  if (!NO_BODY.has(status) && x.req.method !== 'HEAD') headers['content-length'] = whole.length;
  x.res.writeHead(status, headers);
  x.res.end(whole);
}

/** The rest of an answer over the judged size, piped with back-pressure; a cut on either side ends both. */
function stream(
  x: Exchange,
  up: http.IncomingMessage,
  body: LimitedRead,
  headers: http.OutgoingHttpHeaders,
  timeoutMs: number,
): void {
  const { res } = x;
  res.writeHead(up.statusCode ?? 502, headers);
  for (const chunk of body.chunks) res.write(chunk);
  body.chunks.length = 0;
  // A client that stops reading for the proxy timeout is dropped, and the upstream with it.
  res.setTimeout(timeoutMs, () => res.destroy());
  let clientGone = false;
  res.once('close', () => {
    if (!res.writableFinished && up.readable) clientGone = true;
  });
  up.once('aborted', () => undefined);
  pipeline(up, res, (err) => {
    if (!err) return;
    up.destroy();
    if (clientGone || up.complete) return void res.destroy();
    // A finding of this same exchange (its head was judged and logged already), not a second exchange.
    x.amend('upstream.complete', 'the upstream cut the answer mid-body');
    resetClient(res);
  });
}

/**
 * A stream passed on chunk by chunk (each SSE event reaches the client when the upstream sends it), a copy of
 * its first --max-body-bytes kept; when it ends (or either side goes) its whole items are judged. In enforce
 * mode too: an item already passed on cannot be taken back, so a stream's findings are reported, not refused.
 */
function liveStream(x: Exchange, up: http.IncomingMessage, kind: StreamKind, limit: number): void {
  const status = up.statusCode ?? 502;
  const headers = backwardHeaders(up.headers);
  headers['contract-violations'] = String(x.problems.length);
  headers['contract-judged'] = 'a stream: its items are judged when it ends';
  x.res.writeHead(status, headers);
  const kept: Buffer[] = [];
  let size = 0;
  let cut = false;
  up.on('data', (chunk: Buffer) => {
    if (size + chunk.length <= limit) kept.push(chunk);
    else cut = true;
    size += chunk.length;
  });
  pipeline(up, x.res, (err) => {
    if (err) up.destroy();
    const text = Buffer.concat(kept).toString('utf8');
    const body = err || cut ? wholeItems(kind, text) : text;
    const response = { status, headers: flatHeaders(up.headers), body };
    x.finish({ kind: 'answered', response, enforceable: false });
  });
}

/** Statuses that never carry a body (RFC 9110 §6.4.1). */
const NO_BODY = new Set([204, 304]);

/** A header's value as one string. */
export const headerText = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(',') : value;

/** Header values as single strings, names lower-cased (as node gives them). */
export function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

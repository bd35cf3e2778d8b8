/** The HTTP adapter: node:http request in, pipeline, bytes out. No framework on the hot path. */
import { STATUS_CODES, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Deps, MockRequest } from '../core/context';
import { apiError, methodNotAllowed, type ErrorReply } from '../core/errors';
import { runPipeline } from '../core/pipeline';
import { ANONYMOUS_WINDOWS } from '../core/stages/identify';
import { decideLimit } from '../core/stages/rate-limit';
import { toHttpResponse } from '../core/stages/respond';
import { remoteAddressOf } from '../node/trust-proxy';

const NO_BODY = { body: Buffer.alloc(0), tooLarge: false };

/** Read the body, keeping at most `limit` bytes; a larger body is flagged, not buffered. */
export function readBody(
  req: IncomingMessage,
  limit: number,
): Promise<{ body: Buffer; tooLarge: boolean } | null> {
  // No Content-Length and no Transfer-Encoding: HTTP/1.1 says there is no body (RFC 9112 §6.3); skip the stream.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve(NO_BODY);
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume(); // discard; the 413 closes the connection
    return Promise.resolve({ body: Buffer.alloc(0), tooLarge: true });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
      } else if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () =>
      resolve({ body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), tooLarge }),
    );
    req.on('error', () => resolve(null));
    req.on('aborted', () => resolve(null));
  });
}

/**
 * Build the request listener over fully built dependencies, or over a holder whose `current` --watch swaps:
 * each request reads it once, so it sees one version of the spec and keys from start to end.
 */
export function createApp(source: Deps | { current: Deps }): RequestListener {
  return async function petstoreMock(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const deps = 'current' in source ? source.current : source;
    const started = performance.now();
    const read = await readBody(req, deps.config.maxBodyBytes);
    if (!read) return; // the client went away
    // RFC 9112 §3.2.2: accept the absolute form (`GET http://host/v1/categories`) as its path.
    const target = req.url ?? '/';
    const url = target.startsWith('/')
      ? target
      : target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
    const q = url.indexOf('?');
    const mockReq: MockRequest = {
      method: req.method ?? 'GET',
      path: q === -1 ? url : url.slice(0, q),
      headers: req.headers,
      // --trust-proxy: behind a listed balancer, the client it names in X-Forwarded-For (issue 13).
      remoteAddress: remoteAddressOf(
        req.socket.remoteAddress,
        req.headers['x-forwarded-for'],
        deps.config.trustProxy,
      ),
      body: read.body,
      bodyTooLarge: read.tooLarge,
      httpVersion: req.httpVersion,
    };
    const { reply, ctx, error } = await runPipeline(mockReq, deps);
    if (error) {
      deps.log.event('error', 'unhandled error in a stage', {
        method: mockReq.method,
        path: mockReq.path,
        caller: ctx.identity?.label,
        error: error instanceof Error ? error.stack : String(error),
      });
    }
    const out = toHttpResponse(reply, ctx, deps);
    res.writeHead(out.status, out.headers);
    if (reply.stream) reply.stream(res);
    else res.end(out.body);
    deps.log.request({
      method: mockReq.method,
      path: mockReq.path,
      status: out.status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      caller: ctx.identity?.label ?? 'unknown',
    });
  };
}

/** Pure: the Error reply for HTTP that Node refused before it became a request. */
export function clientErrorReply(code: string | undefined): ErrorReply {
  if (code === 'HPE_HEADER_OVERFLOW') return apiError('header_too_large', 'request headers are too large');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return apiError('request_timeout', 'the request was not received in time');
  return apiError('bad_request', `malformed HTTP request (${code ?? 'unknown'})`);
}

/** Write an Error reply straight to a socket, with the rate-limit headers of its address, then close it. */
function answerOnSocket(socket: Duplex, reply: ErrorReply, deps: Deps): void {
  const address = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown';
  const now = deps.clock.now();
  void deps.limiter
    .peek(`addr:${address}`, ANONYMOUS_WINDOWS, now)
    .then((used) => decideLimit(ANONYMOUS_WINDOWS, { kind: 'admitted', used }, now).headers)
    .catch(() => ({}))
    .then((limitHeaders: Record<string, string>) => {
      if (!socket.writable) return;
      const body = JSON.stringify(reply.body);
      const headers = {
        'Content-Type': 'application/json',
        ...limitHeaders,
        ...reply.headers,
        'Content-Length': Buffer.byteLength(body),
        Connection: 'close',
      };
      const head = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.end(`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}\r\n${head}\r\n${body}`);
    });
}

/**
 * Malformed HTTP never reaches the pipeline (oversized headers, a bad request line, a slow client timed out):
 * answer it with the Error shape and the rate-limit headers of the caller's address too, then close.
 */
export function createClientErrorHandler(
  source: Deps | { current: Deps },
): (err: Error, socket: Duplex) => void {
  return function petstoreClientError(err, socket) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    answerOnSocket(socket, clientErrorReply(code), 'current' in source ? source.current : source);
  };
}

/** CONNECT (a proxy tunnel) is no operation of the API: 405 with the Error shape instead of a dropped socket. */
export function createConnectHandler(
  source: Deps | { current: Deps },
): (req: IncomingMessage, socket: Duplex) => void {
  return function petstoreConnect(req, socket) {
    const deps = 'current' in source ? source.current : source;
    answerOnSocket(socket, methodNotAllowed('CONNECT', req.url ?? '', ['GET', 'POST']), deps);
  };
}

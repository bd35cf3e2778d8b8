/**
 * The node:http adapter: IncomingMessage in, the engine, bytes out. No framework on the hot path. The body is
 * read only when the pipeline asks for it (after identity, rate limit, route and auth), and HTTP that Node
 * refuses before it is a request is answered with the Error shape and the rate-limit headers too.
 */
import { performance } from 'node:perf_hooks';
import { STATUS_CODES, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { BodyRead, Deps } from '../core/context';
import { handleRequest } from '../core/engine';
import { apiError, methodNotAllowed, type ErrorReply } from '../core/errors';
import { addressSubject } from '../core/stages/identify';
import { decideLimit } from '../core/stages/rate-limit';
import { PIPELINE, type Pipeline } from '../core/pipeline';
import { begin, clientErrorFields, whenIdle } from '../../spec/http/connection';
import { NodeExchange, type AddressOf, type BodyInFlight, type BodyIo } from './node-exchange';

const socketAddress: AddressOf = (peer) => peer;

const EMPTY = new Uint8Array(0);

/** Connections whose request body the pipeline is reading: a parse error there is that request's one answer. */
const readingBody = new WeakMap<object, IncomingMessage>();

/** Read the body, keeping at most `limit` bytes; a larger body is flagged, not buffered. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead | null> {
  // No Content-Length and no Transfer-Encoding: HTTP/1.1 says there is no body (RFC 9112 §6.3); skip the stream.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve({ bytes: EMPTY, tooLarge: false });
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume(); // discard; the 413 closes the connection
    return Promise.resolve({ bytes: EMPTY, tooLarge: true });
  }
  // A body that failed before the pipeline asked for it (a parse error while an earlier stage waited) is gone.
  if (req.destroyed || req.readableAborted || req.errored) return Promise.resolve(null);
  const socket = req.socket;
  readingBody.set(socket, req);
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
    req.on('end', () => {
      readingBody.delete(socket);
      resolve({ bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), tooLarge });
    });
    req.on('error', () => resolve(null));
    req.on('aborted', () => resolve(null));
    req.on('close', () => resolve(null)); // after 'end' this changes nothing: the promise is settled
  });
}

export interface NodeAdapterOptions<D extends Deps> {
  /** The stages, composed (mock/core/pipeline.ts `buildPipeline`); the engine's own by default. */
  pipeline?: Pipeline<D>;
  addressOf?: AddressOf;
}

/** Pure: the path and query of a request target; the absolute form (`GET http://host/v1/x`) is accepted. */
export function splitTarget(target: string): { path: string; query: string } {
  const url = target.startsWith('/') ? target : target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
  const q = url.indexOf('?');
  return q === -1 ? { path: url, query: '' } : { path: url.slice(0, q), query: url.slice(q + 1) };
}

/**
 * Build the request listener over fully built dependencies, or over a holder whose `current` --watch swaps:
 * each request reads it once, so it sees one version of the spec and keys from start to end.
 */
export function createApp<D extends Deps>(
  source: D | { current: D },
  options: NodeAdapterOptions<D> = {},
): RequestListener {
  const pipeline = options.pipeline ?? PIPELINE;
  const addressOf = options.addressOf ?? socketAddress;
  return function mockRequest(req: IncomingMessage, res: ServerResponse): void {
    const deps = 'current' in source ? source.current : source;
    const started = performance.now();
    const finished = begin(req.socket);
    res.on('close', finished); // emitted once; `finished` runs once anyway
    // Until its body has arrived, a parse error on this connection is about that body (issue 21).
    const body: BodyInFlight | undefined = hasBody(req) ? { reading: false } : undefined;
    if (body) {
      bodiesInFlight.set(req.socket, body);
      req.once('end', () => bodiesInFlight.delete(req.socket));
    }
    const exchange = new NodeExchange(
      req,
      res,
      deps,
      BODY_IO,
      NodeExchange.target(req.url ?? '/', splitTarget),
      addressOf,
      body,
      started,
      finished,
    );
    // Stores in memory: the answer is there at once and goes out in this same turn, no promise in between.
    const result = handleRequest(exchange, source, pipeline);
    if (result instanceof Promise) void result.then((r) => exchange.deliver(r));
    else exchange.deliver(result);
  };
}

/** Connections whose request was answered before its body was read, until that body ends. */
const answeredEarly = new WeakSet<object>();

const bodiesInFlight = new WeakMap<object, BodyInFlight>();

const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Drain the unread body of an answered request, at most `limit` bytes (past that, or when it declares more, the
 * connection closes: true when the answer must say `Connection: close`). Until the body ends, a parse error in
 * it is not answered (createClientErrorHandler sees the mark and only closes): one request, one answer.
 */
function drainAfterAnswer(req: IncomingMessage, limit: number): boolean {
  const socket = req.socket;
  answeredEarly.add(socket);
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) whenIdle(socket, () => socket.end());
  });
  req.on('end', () => answeredEarly.delete(socket));
  req.on('error', () => undefined);
  req.resume();
  return Number(req.headers['content-length'] ?? 0) > limit;
}

const BODY_IO: BodyIo = { read: readBody, drain: drainAfterAnswer };

/** Pure: the Error reply for HTTP that Node refused before it became a request. */
export function clientErrorReply(code: string | undefined): ErrorReply {
  const { code: errorCode, message } = clientErrorFields(code);
  return apiError(errorCode, message);
}

/** The Error reply as status line, headers and body, with the rate-limit headers of the caller's address. */
async function errorBytes(
  deps: Deps,
  address: string,
  reply: ErrorReply,
): Promise<{ head: Record<string, string | number>; body: string }> {
  const now = deps.clock.now();
  let limitHeaders: Record<string, string> = {};
  try {
    const used = await deps.limiter.peek(addressSubject(address), deps.anonymous, now);
    // The same set as the pipeline's answers: the IETF fields with their policy, or neither.
    limitHeaders = decideLimit(
      deps.anonymous,
      { kind: 'admitted', used },
      now,
      deps.config.rateLimitFields,
    ).headers;
  } catch {
    // the store is down: the answer goes out without counters
  }
  const rendered = deps.errors.render(undefined, reply.status, reply.error);
  const body = JSON.stringify(rendered.body);
  return {
    head: {
      'Content-Type': rendered.contentType,
      ...limitHeaders,
      ...reply.headers,
      'Content-Length': Buffer.byteLength(body),
    },
    body,
  };
}

/**
 * Write an Error reply straight to a socket, then close it. `afterEarlier`: a malformed later request waits for
 * the answers still due on the connection; a timeout is about the request in flight itself, so it goes at once.
 */
function answerOnSocket(socket: Duplex, reply: ErrorReply, deps: Deps, afterEarlier = false): void {
  const address = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown';
  const run = afterEarlier ? (f: () => void) => whenIdle(socket, f) : (f: () => void) => f();
  run(() => {
    void errorBytes(deps, address, reply).then(({ head, body }) => {
      if (!socket.writable) return;
      const lines = Object.entries({ ...head, Connection: 'close' })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.end(`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}\r\n${lines}\r\n${body}`);
    });
  });
}

/**
 * Malformed HTTP never reaches the pipeline (oversized headers, a bad request line, a slow client timed out):
 * answer it with the Error shape and the rate-limit headers of the caller's address too, then close. An error
 * about a later request on a connection never replaces the answer of an earlier one: it waits for it.
 */
export function createClientErrorHandler(
  source: Deps | { current: Deps },
): (err: Error, socket: Duplex) => void {
  return function mockClientError(err, socket) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // The request was answered already (before its body was read): one request, one answer. The socket ends
    // once that answer is flushed.
    const inFlight = bodiesInFlight.get(socket);
    if (answeredEarly.has(socket) || (inFlight && !inFlight.reading)) {
      whenIdle(socket, () => socket.end());
      return;
    }
    const deps = 'current' in source ? source.current : source;
    // A malformed body the pipeline was reading (the request is not answered yet, and will not be: its read
    // fails): this 400 is its one answer, sent now, before the socket closes under the failed read.
    // `complete` is set by the parser as the body ends, before 'end' is emitted: a later request's error is not it.
    if (readingBody.get(socket)?.complete === false) {
      readingBody.delete(socket);
      answerOnSocket(socket, clientErrorReply(code), deps);
      return;
    }
    answerOnSocket(socket, clientErrorReply(code), deps, code !== 'ERR_HTTP_REQUEST_TIMEOUT');
  };
}

/** CONNECT (a proxy tunnel) is no operation of the API: 405 with the Error shape instead of a dropped socket. */
export function createConnectHandler(
  source: Deps | { current: Deps },
): (req: IncomingMessage, socket: Duplex) => void {
  return function mockConnect(req, socket) {
    const deps = 'current' in source ? source.current : source;
    answerOnSocket(socket, methodNotAllowed('CONNECT', req.url ?? '', ['GET', 'POST']), deps);
  };
}

/** `Expect` other than `100-continue`: 417 with the Error shape, not Node's bare answer (RFC 9110 §10.1.1). */
export function createExpectationHandler(
  source: Deps | { current: Deps },
): (req: IncomingMessage, res: ServerResponse) => void {
  return function mockExpectation(req, res) {
    const deps = 'current' in source ? source.current : source;
    // Counted in flight and drained like any early answer: a malformed body after it never gets a second one.
    res.once('close', begin(req.socket));
    const closing = hasBody(req) ? drainAfterAnswer(req, deps.config.maxBodyBytes) : (req.resume(), false);
    const reply = apiError(
      'expectation_failed',
      `Expect: ${String(req.headers.expect)} is not supported (only 100-continue)`,
    );
    void errorBytes(deps, req.socket.remoteAddress ?? 'unknown', reply).then(({ head, body }) => {
      if (closing) res.shouldKeepAlive = false;
      res.writeHead(reply.status, closing ? { ...head, Connection: 'close' } : head);
      res.end(body);
    });
  };
}

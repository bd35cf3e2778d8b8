/**
 * The validation proxy's node adapter: forwards to the upstream, streams the answer back, asks the judge.
 * The path and query go upstream byte for byte as the client sent them (the judge decodes its own copy).
 * Streams keep back-pressure both ways, and when either side fails the other is destroyed: an upstream cut
 * ends the client's answer with a reset (and is a finding), a client gone destroys the upstream request.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pipeline } from 'node:stream';
import type { LoadedSpec } from '../spec/load';
import { matchBasePath } from '../spec/base-path';
import type { ErrorCode } from '../spec/error-codes';
import { createJudge, type Judge, type UpstreamRule } from './judge/judge';
import type { ObservedRequest, Problem, Route } from './judge/judge-request';
import { backwardHeaders, forwardHeaders, requestFor, splitTarget, upstreamOptions } from './forward';
import { readLimited, type LimitedRead } from './read-limited';
import { streamKindOf, wholeItems, type StreamKind } from '../spec/http/stream-format';
import { createExchangeLog } from './exchange-log';
import { createProxyPages } from './proxy-pages';
import { codeFor, createOwnAnswers, type OwnAnswer } from './own-answers';
import { answerOnSocket, guardServer, track, watchBody } from './proxy-guard';
import { createRelay, RELAY_PREFIX, relayPath, type Relay, type RelayRequest } from './callback-relay';
import { judgeCallback } from '../spec/callbacks';

/** What the proxy needs; the CLI builds it from its flags. */
export interface ProxyOptions {
  spec: LoadedSpec;
  upstream: URL;
  mode: 'report' | 'enforce';
  timeoutMs: number;
  maxBodyBytes: number;
  preserveHost: boolean;
  /** Items the stateful rules remember (`--proxy-max-tracked`, default 10,000). */
  maxTracked?: number;
  /** Writes the `--report` files; `POST /_mock/report` calls it. */
  onReport?: () => string[];
  /**
   * `--callbacks-relay URL`: the proxy's address as the upstream reaches it (`self`: the address it listens on);
   * callbacks are relayed through it and judged.
   */
  callbacksRelay?: string;
  /** `--callback-hosts`: where relayed callbacks may be forwarded (default loopback). */
  callbackHosts?: readonly string[];
}

/** A listening-ready proxy and its judge (for reports). */
export interface ProxyServer {
  server: http.Server;
  judge: Judge;
  listen(port: number, host: string): Promise<string>;
  /** Requests being answered now. */
  inFlight(): number;
  /** Stop accepting; resolve once every request in flight is answered or `drainMs` passed (then cut them). */
  drain(drainMs: number): Promise<void>;
  close(): Promise<void>;
}

/** One exchange in flight: what the judge needs to record it, whatever ends it. */
interface Flight {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  observed: ObservedRequest;
  route: Route;
  problems: Problem[];
  startedAt: number;
  path: string;
  /** Aborted when the client's own request failed (a malformed body): not the upstream's fault. */
  failed: AbortSignal;
  /** The request as `--callbacks-relay` rewrote it (its callback URLs pointing at the relay). */
  rewritten?: { search: string; headers: http.IncomingHttpHeaders; body?: Buffer };
}

/** Build the proxy; nothing listens until `listen`. */
export function createProxyServer(options: ProxyOptions): ProxyServer {
  const judge = createJudge(options.spec, Date.now, { maxTracked: options.maxTracked ?? 10_000 });
  const answers = createOwnAnswers(options.spec);
  const log = createExchangeLog();
  const pageFor = createProxyPages(options.spec, options.upstream);
  let listening = '';
  const relayOrigin = () => (options.callbacksRelay === 'self' ? listening : (options.callbacksRelay ?? ''));
  const relay: Relay | undefined = options.callbacksRelay
    ? createRelay(relayOrigin, { hosts: options.callbackHosts ?? ['loopback'] })
    : undefined;
  let active = 0;
  const idle: Array<() => void> = [];
  const callerOf = (req: http.IncomingMessage) => ({
    headers: req.headers,
    address: req.socket.remoteAddress ?? '',
  });
  const send = (res: http.ServerResponse, answer: OwnAnswer, violations: number, close = false) => {
    if (res.headersSent) return void res.destroy();
    const headers = { ...answer.headers, 'Contract-Violations': String(violations) };
    if (close) res.shouldKeepAlive = false;
    res.writeHead(answer.status, close ? { ...headers, Connection: 'close' } : headers);
    res.end(answer.body);
  };
  const sendError = (
    res: http.ServerResponse,
    req: http.IncomingMessage,
    route: Route | undefined,
    status: number,
    code: ErrorCode,
    message: string,
    violations: number,
  ) => send(res, answers.render(route?.op, status, code, message, callerOf(req)), violations);

  const server = http.createServer(
    // Host is checked here (answered in the error shape), not by Node's bare 400.
    { requireHostHeader: false },
    function proxyRequest(req, res) {
      active++;
      res.once('close', () => {
        if (--active === 0) for (const f of idle.splice(0)) f();
      });
      track(req, res);
      // From the first moment: a malformed body (a bad chunk) is this request's one answer, written by the
      // guard, and the upstream request, if any, goes (forward listens to the signal).
      const unread = new AbortController();
      const release = hasBody(req)
        ? watchBody(req.socket, (answer) => {
            unread.abort();
            if (res.headersSent) return void res.destroy();
            answerOnSocket(req.socket, answer, false);
          })
        : () => undefined;
      res.once('close', release);
      void handle(req, res, unread.signal, release).catch((err: unknown) => {
        // A bug of the proxy, never the client's fault nor the upstream's: said so, in the error shape.
        process.stderr.write(`proxy: internal error: ${(err as Error).stack ?? String(err)}\n`);
        sendError(res, req, undefined, 500, 'internal_error', 'internal error in the proxy', 0);
      });
    },
  );
  // A client that half-closes after its request (nc -q, health checks, HTTP/1.0) still gets its answer: Node
  // otherwise aborts the request at the client's FIN. The socket ends once the answers due on it are written.
  Object.assign(server, { httpAllowHalfOpen: true });
  guardServer(server, answers);

  async function handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    failed: AbortSignal,
    release: () => void,
  ): Promise<void> {
    const startedAt = Date.now();
    const { path, search } = splitTarget(req.url ?? '/');
    if (req.headers.host === undefined && req.httpVersion !== '1.0') {
      req.resume();
      return send(res, answers.render(undefined, 400, 'bad_request', 'the Host header is missing'), 0, true);
    }
    const relayed = relay ? relayPath(path) : undefined;
    if (relay && relayed) return relayCallback(req, res, relay, relayed, search);
    const page = await pageFor(req, path);
    if (failed.aborted) return;
    if (page) {
      res.writeHead(page.status, {
        'content-type': page.type,
        'cache-control': page.cache ?? 'no-store',
        'x-content-type-options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : page.body);
      return;
    }
    if (path.startsWith('/_mock/')) return void adminRoute(req, res, path);
    let read: LimitedRead;
    try {
      read = await readLimited(
        req,
        options.maxBodyBytes,
        headerText(req.headers['content-encoding']),
        req.headers['content-length'],
      );
    } catch {
      release();
      // The client went away or its body was malformed (answered by the guard): nothing to forward.
      if (!failed.aborted) res.destroy();
      return;
    }
    const unjudged = read.tooLarge || read.unjudged !== undefined;
    const observed: ObservedRequest = {
      method: req.method ?? 'GET',
      url: `${path}${search}`,
      headers: flatHeaders(req.headers),
      body: unjudged ? undefined : read.text,
      bodyTooLarge: unjudged,
    };
    const { route, problems } = judge.request(observed);
    const flight: Flight = { req, res, observed, route, problems, startedAt, path, failed };
    if (options.mode === 'enforce' && problems.length > 0) {
      release();
      judge.refused(observed, route, problems);
      const first = problems[0] as Problem;
      const status = first.status ?? 400;
      log.add(observed.method, path, status, startedAt, problems);
      if (read.tooLarge) req.resume();
      const message = problems.map((p) => p.message).join('; ');
      return sendError(res, req, route, status, codeFor(status), message, problems.length);
    }
    // Rewritten only once it goes upstream: a refused request takes no relay slot.
    if (relay && route.op?.callbacks?.length && !read.tooLarge)
      flight.rewritten = rewrite(relay, flight, read);
    if (!read.tooLarge) release();
    forward(flight, read, release);
  }

  function forward(f: Flight, read: LimitedRead, release: () => void) {
    const { req, res, observed, route, problems, startedAt, path } = f;
    const rest = matchBasePath(path, options.spec.basePath) ?? path;
    const client = req.socket.remoteAddress ?? '';
    const headers = forwardHeaders(
      f.rewritten?.headers ?? req.headers,
      options.upstream,
      client,
      options.preserveHost,
      'http',
    );
    const target = upstreamOptions(
      options.upstream,
      rest,
      f.rewritten?.search ?? splitTarget(req.url ?? '/').search,
    );
    let upstreamReq: http.ClientRequest;
    try {
      upstreamReq = requestFor(options.upstream)({ ...target, method: req.method, headers });
    } catch (err) {
      // Node refuses to send it (a header or path it will not write): the client's request, not the upstream.
      release();
      return sendError(res, req, route, 400, 'bad_request', (err as Error).message, problems.length);
    }
    let settled = false;
    let clientGone = false;
    const fail = (rule: UpstreamRule, status: number, code: ErrorCode, message: string) => {
      if (settled || clientGone) return;
      settled = true;
      clearTimeout(timer);
      upstreamReq.destroy();
      log.add(observed.method, path, status, startedAt, [...problems, { side: 'response', rule, message }]);
      judge.upstream(observed, route, problems, { rule, message, status }, false);
      if (res.headersSent) resetClient(res);
      else sendError(res, req, route, status, code, message, problems.length + 1);
    };
    // The client went away before its answer ended, or its body failed: the upstream request goes too.
    const gone = () => {
      clientGone = true;
      clearTimeout(timer);
      upstreamReq.destroy();
    };
    res.once('close', () => {
      if (!res.writableFinished) gone();
    });
    f.failed.addEventListener('abort', gone, { once: true });
    req.once('error', () => (clientGone = true));
    const timer = setTimeout(
      () =>
        fail(
          'upstream.timeout',
          504,
          'gateway_timeout',
          `the upstream did not answer within ${options.timeoutMs} ms`,
        ),
      options.timeoutMs,
    );
    upstreamReq.on('error', () =>
      fail('upstream.reachable', 502, 'bad_gateway', 'the upstream cannot be reached'),
    );
    upstreamReq.on('response', (up) => {
      up.on('error', () => undefined);
      answers.remember(req.headers, req.socket.remoteAddress ?? '', up.headers);
      // A stream (SSE, JSON Lines) may never end: passed on as it comes, judged when it ends (issue 33).
      const kind = streamKindOf(String(up.headers['content-type'] ?? ''));
      if (kind && req.method !== 'HEAD' && !up.headers['content-encoding']) {
        if (settled || clientGone) return void up.destroy();
        settled = true;
        clearTimeout(timer);
        return liveStream(f, up, kind);
      }
      const declared = req.method === 'HEAD' ? undefined : up.headers['content-length'];
      void readLimited(up, options.maxBodyBytes, headerText(up.headers['content-encoding']), declared).then(
        (body) => {
          if (settled || clientGone) return void up.destroy();
          settled = true;
          clearTimeout(timer);
          answer(f, up, body);
        },
        () => fail('upstream.complete', 502, 'bad_gateway', 'the upstream closed the answer early'),
      );
    });
    const chunks = f.rewritten?.body ? [f.rewritten.body] : read.chunks;
    for (const chunk of chunks) upstreamReq.write(chunk);
    if (!read.tooLarge) return void upstreamReq.end();
    // A request body over the limit: the rest streams with back-pressure; a failure on either side ends both.
    pipeline(req, upstreamReq, () => release());
  }

  function answer(f: Flight, up: http.IncomingMessage, body: LimitedRead) {
    const { res, observed, route, problems, startedAt, path } = f;
    const status = up.statusCode ?? 502;
    const found = judge.response(observed, route, problems, {
      status,
      headers: flatHeaders(up.headers),
      body: body.tooLarge || body.unjudged ? undefined : body.text,
      bodyTooLarge: body.tooLarge || body.unjudged !== undefined,
    });
    const enforced = options.mode === 'enforce' && found.length > 0;
    log.add(observed.method, path, enforced ? 502 : status, startedAt, [...problems, ...found]);
    if (enforced) {
      up.destroy();
      const message = `the upstream's answer breaks the contract: ${found.map((p) => `${p.rule}: ${p.message}`).join('; ')}`;
      return sendError(res, f.req, route, 502, 'bad_gateway', message, problems.length + found.length);
    }
    const headers = backwardHeaders(up.headers);
    headers['contract-violations'] = String(problems.length + found.length);
    if (body.tooLarge) headers['contract-judged'] = 'body over --max-body-bytes, not judged';
    else if (body.unjudged) headers['contract-judged'] = body.unjudged;
    if (body.tooLarge) return stream(f, up, body, headers);
    // Read whole: one write of head and body, framed by its length (Transfer-Encoding is hop-by-hop).
    const whole = body.chunks.length === 1 ? (body.chunks[0] as Buffer) : Buffer.concat(body.chunks);
    if (!NO_BODY.has(status) && observed.method !== 'HEAD') headers['content-length'] = whole.length;
    res.writeHead(status, headers);
    res.end(whole);
  }

  /** An answer over the judged size: what was read, then the rest with back-pressure; a cut on either side ends both. */
  function stream(f: Flight, up: http.IncomingMessage, body: LimitedRead, headers: http.OutgoingHttpHeaders) {
    const { res, observed, route, problems } = f;
    const status = up.statusCode ?? 502;
    judge.upstream(
      observed,
      route,
      problems,
      {
        rule: 'upstream.body-size',
        status,
        message: `the body is over --max-body-bytes (${options.maxBodyBytes}) and was not judged`,
      },
      true,
    );
    res.writeHead(status, headers);
    for (const chunk of body.chunks) res.write(chunk);
    body.chunks.length = 0;
    // A client that stops reading for the proxy timeout is dropped, and the upstream with it.
    res.setTimeout(options.timeoutMs, () => res.destroy());
    let clientGone = false;
    res.once('close', () => {
      if (!res.writableFinished && up.readable) clientGone = true;
    });
    up.once('aborted', () => undefined);
    pipeline(up, res, (err) => {
      if (!err) return;
      up.destroy();
      if (clientGone || up.complete) return void res.destroy();
      const message = 'the upstream cut the answer mid-body';
      log.add(observed.method, f.path, status, f.startedAt, [
        { side: 'response', rule: 'upstream.complete', message },
      ]);
      judge.upstream(observed, route, problems, { rule: 'upstream.complete', status, message }, true);
      resetClient(res);
    });
  }

  /**
   * A stream passed on chunk by chunk (each SSE event reaches the client when the upstream sends it), a copy of
   * its first --max-body-bytes kept; when it ends (or either side goes) its whole items are judged. In enforce
   * mode too: an item already passed on cannot be taken back, so a stream's findings are reported, not refused.
   */
  function liveStream(f: Flight, up: http.IncomingMessage, kind: StreamKind) {
    const { res, observed, route, problems } = f;
    const status = up.statusCode ?? 502;
    const headers = backwardHeaders(up.headers);
    headers['contract-violations'] = String(problems.length);
    headers['contract-judged'] = 'a stream: its items are judged when it ends';
    res.writeHead(status, headers);
    const kept: Buffer[] = [];
    let size = 0;
    let cut = false;
    up.on('data', (chunk: Buffer) => {
      if (size + chunk.length <= options.maxBodyBytes) kept.push(chunk);
      else cut = true;
      size += chunk.length;
    });
    pipeline(up, res, (err) => {
      if (err) up.destroy();
      const text = Buffer.concat(kept).toString('utf8');
      const body = err || cut ? wholeItems(kind, text) : text;
      const found = judge.response(observed, route, problems, {
        status,
        headers: flatHeaders(up.headers),
        body,
      });
      log.add(observed.method, f.path, status, f.startedAt, [...problems, ...found]);
    });
  }

  /**
   * `--callbacks-relay`: the request with its callback URL sources pointing at the relay (a JSON body only when
   * it is read whole and not content-encoded); undefined when nothing was rewritten.
   */
  function rewrite(r: Relay, f: Flight, read: LimitedRead): Flight['rewritten'] {
    const { req, route } = f;
    const { search } = splitTarget(req.url ?? '/');
    const type = headerText(req.headers['content-type']) ?? '';
    const plainJson =
      /^application\/(?:[\w.+-]+\+)?json\b/i.test(type) && !req.headers['content-encoding'] && !read.unjudged;
    const given: RelayRequest = {
      search,
      headers: flatHeaders(req.headers),
      ...(plainJson && read.text ? { json: read.text } : {}),
    };
    const out = r.rewrite(route.op?.operationId ?? '', route.op?.callbacks ?? [], given);
    const body = out.json !== given.json && out.json !== undefined ? Buffer.from(out.json) : undefined;
    const headers: http.IncomingHttpHeaders = { ...out.headers };
    if (body) {
      headers['content-length'] = String(body.length);
      delete headers['transfer-encoding'];
    }
    return { search: out.search, headers, ...(body ? { body } : {}) };
  }

  /**
   * A callback the upstream sent to a relay path: judged against the callbacks documented for it (the runner's
   * judge, spec/callbacks.ts), then forwarded to the target the client named; its answer goes back.
   */
  async function relayCallback(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    r: Relay,
    at: { token: string; rest: string },
    search: string,
  ): Promise<void> {
    let read: LimitedRead;
    try {
      read = await readLimited(
        req,
        options.maxBodyBytes,
        headerText(req.headers['content-encoding']),
        req.headers['content-length'],
      );
    } catch {
      return void res.destroy();
    }
    const pending = r.lookup(at.token);
    const observed: ObservedRequest = {
      method: req.method ?? 'POST',
      // The token is a capability while it lives: reports and the inspector show where it went, not the token.
      url: `${RELAY_PREFIX}…${at.rest}${search}`,
      headers: flatHeaders(req.headers),
      body: read.tooLarge ? undefined : read.text,
      bodyTooLarge: read.tooLarge,
    };
    if (read.tooLarge) {
      // Bounded like every body the proxy reads: not relayed in part, not judged.
      req.resume();
      const message = `the callback's body is over --max-body-bytes (${options.maxBodyBytes}): not relayed`;
      return sendError(res, req, undefined, 413, 'payload_too_large', message, 0);
    }
    if (!pending) {
      const message = 'a callback arrived at a relay path the proxy never handed out, or one expired';
      judge.callback(
        observed,
        undefined,
        [{ side: 'response', rule: 'callbacks.undocumented', message }],
        404,
      );
      return sendError(res, req, undefined, 404, 'not_found', message, 1);
    }
    const verdict = judgeCallback(
      pending.specs,
      { method: observed.method, headers: observed.headers, body: read.text },
      pending.taken,
    );
    const problems: Problem[] = verdict.problems.map((p) => ({
      side: 'response',
      rule: p.rule,
      message: p.message,
    }));
    if (!verdict.match)
      problems.push({
        side: 'response',
        rule: 'callbacks.undocumented',
        message: `a ${observed.method} is no documented callback of ${pending.operationId}`,
      });
    else if (pending.taken.has(verdict.match))
      problems.push({
        side: 'response',
        rule: 'callbacks.undocumented',
        message: `callback ${verdict.match.name} of ${pending.operationId} arrived more than once`,
      });
    if (verdict.match) pending.taken.add(verdict.match);
    // Judged as it arrives, before the target answers: the finding does not wait on the client's receiver.
    judge.callback(observed, pending.operationId, problems);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(observed.headers))
      if (!['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name))
        headers[name] = value;
    try {
      const answer = await fetch(`${pending.target}${at.rest}${search}`, {
        method: observed.method,
        headers,
        body: ['GET', 'HEAD'].includes(observed.method) ? undefined : Buffer.concat(read.chunks),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await readAnswer(answer, options.maxBodyBytes);
      if (!text)
        return sendError(
          res,
          req,
          undefined,
          502,
          'bad_gateway',
          `the callback target's answer is over --max-body-bytes (${options.maxBodyBytes})`,
          problems.length,
        );
      const type = answer.headers.get('content-type');
      res.writeHead(answer.status, {
        ...(type ? { 'content-type': type } : {}),
        'content-length': text.length,
        'contract-violations': String(problems.length),
      });
      res.end(text);
    } catch (err) {
      sendError(
        res,
        req,
        undefined,
        502,
        'bad_gateway',
        `the callback's target cannot be reached: ${(err as Error).message}`,
        problems.length,
      );
    }
  }

  /** The proxy's own routes: this machine only, as the mock's admin routes are without a token. */
  function adminRoute(req: http.IncomingMessage, res: http.ServerResponse, pathname: string) {
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    req.resume();
    if (!isLoopback(req.socket.remoteAddress))
      return sendError(res, req, undefined, 403, 'forbidden', 'the proxy routes answer this machine only', 0);
    if (pathname === '/_mock/violations' && req.method === 'GET') return json(200, judge.snapshot());
    if (pathname === '/_mock/exchanges' && req.method === 'GET') return json(200, log.snapshot());
    if (pathname === '/_mock/report' && req.method === 'POST')
      return json(200, { written: options.onReport?.() ?? [] });
    return sendError(res, req, undefined, 404, 'not_found', `no proxy route at ${pathname.slice(0, 200)}`, 0);
  }

  const drain = (drainMs: number): Promise<void> =>
    new Promise((resolve) => {
      server.close();
      server.closeIdleConnections();
      if (active === 0) return resolve();
      const timer = setTimeout(() => {
        server.closeAllConnections();
        resolve();
      }, drainMs);
      idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  return {
    server,
    judge,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const a = server.address() as AddressInfo;
          listening = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
          resolve(
            `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}${options.spec.basePath}`,
          );
        });
      }),
    inFlight: () => active,
    drain,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fetch answer's body, read up to `limit` bytes; undefined (and the rest cancelled) when it is longer. */
async function readAnswer(answer: Response, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (!answer.body) return Buffer.alloc(0);
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > limit) {
      await answer.body.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** End the client's answer with a TCP reset: a client must never read a cut answer as complete. */
function resetClient(res: http.ServerResponse): void {
  const socket = res.socket as (Socket & { resetAndDestroy?: () => void }) | null;
  if (socket?.resetAndDestroy) socket.resetAndDestroy();
  else res.destroy();
}

const hasBody = (req: http.IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** Statuses that never carry a body (RFC 9110 §6.4.1). */
const NO_BODY = new Set([204, 304]);

const headerText = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(',') : value;

const isLoopback = (address: string | undefined) =>
  address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';

/** Header values as single strings, names lower-cased (as node gives them). */
function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

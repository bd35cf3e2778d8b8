/**
 * The validation proxy's node adapter: each request becomes an Exchange (exchange.ts), forwarded to the upstream
 * and its answer streamed back (forward-exchange.ts); the relay (relay-route.ts), the pages and the admin routes
 * (admin-routes.ts) are answered here before that. The path and query go upstream byte for byte as the client
 * sent them (the judge decodes its own copy).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoadedSpec } from '../spec/load';
import { createJudge, type Judge } from './judge/judge';
import { readLimited, type LimitedRead } from './read-limited';
import { createExchangeLog } from './exchange-log';
import { createProxyPages, type PageAnswer } from './proxy-pages';
import { codeFor, createOwnAnswers } from './own-answers';
import { answerOnSocket, guardServer, watchBody } from './proxy-guard';
import { begin } from '../spec/http/connection';
import { createRelay, relayPath, type Relay } from './callback-relay';
import { Exchange, type ExchangeDeps } from './exchange';
import { flatHeaders, forward, headerText, type ForwardContext } from './forward-exchange';
import { relayCallback, rewriteForRelay, type RelayContext } from './relay-route';
import { adminRoute } from './admin-routes';

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
  /**
   * Keep the newest exchanges whole for a HAR (`judge.recent()`; default true). The CLI keeps them only when
   * `--report har=FILE` asks for one: otherwise each exchange would be masked and copied for nothing.
   */
  keepExchanges?: boolean;
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

/** Build the proxy; nothing listens until `listen`. */
export function createProxyServer(options: ProxyOptions): ProxyServer {
  const judge = createJudge(options.spec, Date.now, {
    maxTracked: options.maxTracked ?? 10_000,
    ...(options.keepExchanges === false ? { maxRecent: 0 } : {}),
  });
  const answers = createOwnAnswers(options.spec);
  const log = createExchangeLog();
  const deps: ExchangeDeps = { judge, log, answers, mode: options.mode };
  const ahead: ForwardContext = { ...options, answers };
  const admin = { judge, log, answers, onReport: options.onReport };
  const pageFor = createProxyPages(options.spec, options.upstream);
  let listening = '';
  const relayOrigin = () => (options.callbacksRelay === 'self' ? listening : (options.callbacksRelay ?? ''));
  const relay: Relay | undefined = options.callbacksRelay
    ? createRelay(relayOrigin, { hosts: options.callbackHosts ?? ['loopback'] })
    : undefined;
  const relayed: RelayContext | undefined = relay ? { relay, judge, answers, ...options } : undefined;
  let active = 0;
  const idle: Array<() => void> = [];

  const server = http.createServer(
    // Host is checked here (answered in the error shape), not by Node's bare 400.
    { requireHostHeader: false },
    function proxyRequest(req, res) {
      active++;
      const x = new Exchange(req, res, deps);
      // From the first moment: a malformed or stalled body is the client's fault and this request's one answer,
      // and the upstream request, if any, goes (forward listens to the signal). A request without a body has
      // neither: no watch, no signal.
      const unread = hasBody(req) ? new AbortController() : undefined;
      const release = unread ? watchClientBody(x, unread, options.timeoutMs) : noop;
      const answered = begin(req.socket);
      // One listener for the whole exchange's end (not one per concern).
      res.on('close', function exchangeClosed() {
        answered();
        release();
        if (--active === 0) for (const f of idle.splice(0)) f();
      });
      const internal = (err: unknown) => {
        // A bug of the proxy, never the client's fault nor the upstream's: said so, in the error shape.
        process.stderr.write(`proxy: internal error: ${(err as Error).stack ?? String(err)}\n`);
        x.reply(500, 'internal_error', 'internal error in the proxy', 0);
      };
      try {
        handle(x, unread?.signal, release)?.catch(internal);
      } catch (err) {
        internal(err);
      }
    },
  );
  // A client that half-closes after its request (nc -q, health checks, HTTP/1.0) still gets its answer: Node
  // otherwise aborts the request at the client's FIN. The socket ends once the answers due on it are written.
  Object.assign(server, { httpAllowHalfOpen: true });
  guardServer(server, answers);

  /** Synchronous up to the upstream request unless a page is read from disk or a body is to be read. */
  function handle(x: Exchange, failed: AbortSignal | undefined, release: () => void): Promise<void> | void {
    const { req, res } = x;
    if (req.headers.host === undefined && req.httpVersion !== '1.0') {
      req.resume();
      return x.reply(400, 'bad_request', 'the Host header is missing', 0, true);
    }
    const relayTo = relayed ? relayPath(x.path) : undefined;
    if (relayed && relayTo) return relayCallback(relayed, req, res, relayTo, x.search);
    const page = pageFor(req, x.path);
    if (page instanceof Promise)
      return page.then((found) => {
        if (failed?.aborted) return;
        return found ? writePage(x, found) : route(x, failed, release);
      });
    if (page) return writePage(x, page);
    return route(x, failed, release);
  }

  function route(x: Exchange, failed: AbortSignal | undefined, release: () => void): Promise<void> | void {
    if (x.path.startsWith('/_mock/')) return adminRoute(admin, x.req, x.res, x.path);
    // No body (no Content-Length, no Transfer-Encoding): nothing to wait for, judged and forwarded at once.
    if (!failed) return judgeAndForward(x, { chunks: [], tooLarge: false, text: '' }, undefined, release);
    return readThenForward(x, failed, release);
  }

  async function readThenForward(x: Exchange, failed: AbortSignal, release: () => void): Promise<void> {
    const { req, res } = x;
    const encoding = headerText(req.headers['content-encoding']);
    const read = await readLimited(req, options.maxBodyBytes, encoding, req.headers['content-length']).catch(
      () => undefined,
    );
    if (!read) {
      // The client went away, or its body failed (answered as the client's fault): nothing to forward.
      release();
      if (failed.aborted) return;
      x.finish({ kind: 'gone' });
      return void res.destroy();
    }
    judgeAndForward(x, read, failed, release);
  }

  function judgeAndForward(
    x: Exchange,
    read: LimitedRead,
    failed: AbortSignal | undefined,
    release: () => void,
  ): void {
    const { req } = x;
    const unjudged = read.tooLarge || read.unjudged !== undefined;
    x.observed = {
      method: req.method ?? 'GET',
      url: `${x.path}${x.search}`,
      headers: flatHeaders(req.headers),
      body: unjudged ? undefined : read.text,
      bodyTooLarge: unjudged,
    };
    const { route, problems } = judge.request(x.observed);
    x.route = route;
    x.problems = problems;
    if (options.mode === 'enforce' && problems.length > 0) {
      release();
      x.finish({ kind: 'refused' });
      if (read.tooLarge) req.resume();
      const status = problems[0]?.status ?? 400;
      return x.reply(status, codeFor(status), problems.map((p) => p.message).join('; '), problems.length);
    }
    // Rewritten only once it goes upstream: a refused request takes no relay slot.
    const rewritten =
      relay && route.op?.callbacks?.length && !read.tooLarge ? rewriteForRelay(relay, x, read) : undefined;
    if (read.tooLarge) req.once('end', release);
    else release();
    forward(x, read, ahead, failed, rewritten);
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

/**
 * While a request's body arrives, its faults are the client's: a malformed body (a bad chunk, cut short by a
 * half-close) is answered by the guard, a body that stalls for `timeoutMs` gets a 408; either way the upstream
 * request goes. Returns the release (the watch ends with the body).
 */
function watchClientBody(x: Exchange, unread: AbortController, timeoutMs: number): () => void {
  const { req, res } = x;
  req.setTimeout(timeoutMs, () => {
    // Judged the client's fault before the upstream request goes, so its end is not taken for the client gone.
    x.failByClient(408, 'request_timeout', `the request body stalled: nothing arrived for ${timeoutMs} ms`);
    unread.abort();
  });
  // Only while the body arrives: after it, the socket's timeout is Node's (keep-alive) again.
  req.once('end', () => req.socket?.setTimeout(0));
  return watchBody(req.socket, (answer) => {
    x.clientFault = true;
    x.finish({
      kind: 'client',
      status: answer.status,
      message: 'the request body is malformed or cut short',
    });
    unread.abort();
    if (res.headersSent) return void res.destroy();
    answerOnSocket(req.socket, answer, false);
  });
}

const noop = (): void => undefined;

/** An answer of the pages, written (HEAD: its head only). */
function writePage(x: Exchange, page: PageAnswer): void {
  x.res.writeHead(page.status, {
    'content-type': page.type,
    'cache-control': page.cache ?? 'no-store',
    'x-content-type-options': 'nosniff',
  });
  x.res.end(x.req.method === 'HEAD' ? undefined : page.body);
}

const hasBody = (req: http.IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** The validation proxy's node adapter: forwards to the upstream, streams the answer back, asks the judge. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoadedSpec } from '../spec/load';
import { matchBasePath } from '../spec/base-path';
import { createErrorShaper } from '../spec/error-shape';
import type { ErrorCode } from '../spec/error-codes';
import { createJudge, type Judge } from './judge/judge';
import type { ObservedRequest, Problem, Route } from './judge/judge-request';
import { backwardHeaders, forwardHeaders, requestFor, upstreamUrl } from './forward';
import { readLimited, type LimitedRead } from './read-limited';
import { createExchangeLog } from './exchange-log';
import { createProxyPages } from './proxy-pages';

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
}

/** A listening-ready proxy and its judge (for reports). */
export interface ProxyServer {
  server: http.Server;
  judge: Judge;
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}

/** Build the proxy; nothing listens until `listen`. */
export function createProxyServer(options: ProxyOptions): ProxyServer {
  const judge = createJudge(options.spec, Date.now, { maxTracked: options.maxTracked ?? 10_000 });
  const shaper = createErrorShaper(options.spec);
  const log = createExchangeLog();
  const pageFor = createProxyPages(options.spec, options.upstream);
  const sendError = (
    res: http.ServerResponse,
    route: Route | undefined,
    status: number,
    code: ErrorCode,
    message: string,
    violations: number,
  ) => {
    const { contentType, body } = shaper.renderBytes(route?.op, status, { code, message });
    res.writeHead(status, {
      'content-type': contentType,
      'content-length': body.byteLength,
      'contract-violations': String(violations),
    });
    res.end(body);
  };
  const server = http.createServer(function proxyRequest(req, res) {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        sendError(res, undefined, 502, 'bad_gateway', `proxy failure: ${(err as Error).message}`, 0);
      else res.destroy();
    });
  });
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    const startedAt = Date.now();
    const page = await pageFor(req, url.pathname);
    if (page) {
      const cache = page.cache ?? 'no-store';
      res.writeHead(page.status, {
        'content-type': page.type,
        'cache-control': cache,
        'x-content-type-options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : page.body);
      return;
    }
    if (url.pathname.startsWith('/_mock/')) {
      adminRoute(req, res, url.pathname);
      return;
    }
    const read = await readLimited(req, options.maxBodyBytes, headerText(req.headers['content-encoding']));
    const unjudged = read.tooLarge || read.unjudged !== undefined;
    const observed: ObservedRequest = {
      method: req.method ?? 'GET',
      url: `${url.pathname}${url.search}`,
      headers: flatHeaders(req.headers),
      body: unjudged ? undefined : read.text,
      bodyTooLarge: unjudged,
    };
    const { route, problems } = judge.request(observed);
    if (options.mode === 'enforce' && problems.length > 0) {
      judge.refused(observed, route, problems);
      const first = problems[0] as Problem;
      log.add(observed.method, url.pathname, first.status ?? 400, startedAt, problems);
      sendError(
        res,
        route,
        first.status ?? 400,
        codeOf(first.status ?? 400),
        problems.map((p) => p.message).join('; '),
        problems.length,
      );
      return;
    }
    forward(req, res, observed, route, problems, read, startedAt);
  }
  function forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    observed: ObservedRequest,
    route: Route,
    problems: Problem[],
    read: LimitedRead,
    startedAt: number,
  ) {
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    const rest = matchBasePath(url.pathname, options.spec.basePath) ?? url.pathname;
    const target = upstreamUrl(options.upstream, rest, url.search);
    const client = req.socket.remoteAddress ?? '';
    const headers = forwardHeaders(req.headers, options.upstream, client, options.preserveHost, 'http');
    const upstreamReq = requestFor(target)(target, { method: req.method, headers });
    let settled = false;
    const fail = (status: number, code: ErrorCode, message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      upstreamReq.destroy();
      log.add(observed.method, url.pathname, status, startedAt, problems);
      if (res.headersSent) res.destroy();
      else sendError(res, route, status, code, message, problems.length);
    };
    const timer = setTimeout(
      () => fail(504, 'gateway_timeout', `the upstream did not answer within ${options.timeoutMs} ms`),
      options.timeoutMs,
    );
    upstreamReq.on('error', () => fail(502, 'bad_gateway', 'the upstream cannot be reached'));
    upstreamReq.on('response', (up) => {
      void readLimited(up, options.maxBodyBytes, headerText(up.headers['content-encoding'])).then(
        (body) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          answer(res, up, body, observed, route, problems, startedAt);
        },
        () => fail(502, 'bad_gateway', 'the upstream closed the answer early'),
      );
    });
    for (const chunk of read.chunks) upstreamReq.write(chunk);
    if (read.tooLarge) req.pipe(upstreamReq);
    else upstreamReq.end();
  }
  function answer(
    res: http.ServerResponse,
    up: http.IncomingMessage,
    body: LimitedRead,
    observed: ObservedRequest,
    route: Route,
    problems: Problem[],
    startedAt: number,
  ) {
    const found = judge.response(observed, route, problems, {
      status: up.statusCode ?? 502,
      headers: flatHeaders(up.headers),
      body: body.tooLarge || body.unjudged ? undefined : body.text,
      bodyTooLarge: body.tooLarge || body.unjudged !== undefined,
    });
    const path = new URL(observed.url, 'http://proxy.invalid').pathname;
    const enforced = options.mode === 'enforce' && found.length > 0;
    log.add(observed.method, path, enforced ? 502 : (up.statusCode ?? 502), startedAt, [
      ...problems,
      ...found,
    ]);
    if (enforced) {
      up.destroy();
      const message = `the upstream's answer breaks the contract: ${found.map((p) => `${p.rule}: ${p.message}`).join('; ')}`;
      sendError(res, route, 502, 'bad_gateway', message, problems.length + found.length);
      return;
    }
    const headers = backwardHeaders(up.headers);
    headers['contract-violations'] = String(problems.length + found.length);
    if (body.tooLarge) headers['contract-judged'] = 'body over --max-body-bytes, not judged';
    else if (body.unjudged) headers['contract-judged'] = body.unjudged;
    if (body.tooLarge) {
      res.writeHead(up.statusCode ?? 502, headers);
      for (const chunk of body.chunks) res.write(chunk);
      up.pipe(res);
      return;
    }
    // Read whole: one write of head and body, framed by its length (Transfer-Encoding is hop-by-hop).
    const whole = body.chunks.length === 1 ? (body.chunks[0] as Buffer) : Buffer.concat(body.chunks);
    if (!NO_BODY.has(up.statusCode ?? 0) && observed.method !== 'HEAD')
      headers['content-length'] = whole.length;
    res.writeHead(up.statusCode ?? 502, headers);
    res.end(whole);
  }
  /** The proxy's own routes: this machine only, as the mock's admin routes are without a token. */
  function adminRoute(req: http.IncomingMessage, res: http.ServerResponse, pathname: string) {
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (!isLoopback(req.socket.remoteAddress))
      return json(403, { code: 'forbidden', message: 'this machine only' });
    if (pathname === '/_mock/violations' && req.method === 'GET') return json(200, judge.snapshot());
    if (pathname === '/_mock/exchanges' && req.method === 'GET') return json(200, log.snapshot());
    if (pathname === '/_mock/report' && req.method === 'POST')
      return json(200, { written: options.onReport?.() ?? [] });
    return json(404, { code: 'not_found', message: `no proxy route at ${pathname}` });
  }
  return {
    server,
    judge,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const a = server.address() as AddressInfo;
          resolve(
            `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}${options.spec.basePath}`,
          );
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Statuses that never carry a body (RFC 9110 §6.4.1). */
const NO_BODY = new Set([204, 304]);

const headerText = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(',') : value;

const isLoopback = (address: string | undefined) =>
  address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';

const CODES: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  415: 'unsupported_media_type',
};
const codeOf = (status: number) => CODES[status] ?? 'invalid_request';

/** Header values as single strings, names lower-cased (as node gives them). */
function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

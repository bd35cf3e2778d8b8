/**
 * A small faithful pet store server for the runner's own tests (node:http, 127.0.0.1, port 0), with
 * an optional single fault switched on to make a deliberately broken server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | 'wrong-status'
  | 'non-error-body'
  | 'missing-rate-limit-header'
  | 'no-429'
  | '429-without-retry-after'
  | 'state-not-kept'
  | 'id-as-string'
  | 'auth-ignored'
  | 'ietf-bad-syntax'
  | 'ietf-r-above-q'
  | 'ietf-no-countdown'
  | 'ietf-early-retry-after';

export interface ReferenceOptions {
  fault?: Fault;
  /** key -> requests per minute. */
  keys?: Record<string, number>;
  /** Requests per minute of callers without a valid key (per address). */
  anonymousLimit?: number;
  /** Send the IETF RateLimit and RateLimit-Policy fields too (default true). */
  ietf?: boolean;
}

export interface RunningServer {
  url: string;
  /** 429s sent so far, per identity (`key:...` or `addr:...`). */
  rejected: Map<string, number>;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const WINDOW_MS = 60_000;

/** Start the server on 127.0.0.1, port 0; `url` ends in /v1. */
export async function startReferenceServer(options: ReferenceOptions = {}): Promise<RunningServer> {
  const fault = options.fault;
  const keys = options.keys ?? { 'good-key': 1000, 'quota-key': 60 };
  const windows = new Map<string, { start: number; used: number }>();
  const categories: Array<{ id: number; name: string; description?: string }> = [];
  let nextId = 1;
  const rejected = new Map<string, number>();

  const error = (status: number, code: string, message: string): Reply => ({
    status,
    body: fault === 'non-error-body' ? { error: message } : { code, message, status },
  });
  const notAllowed = (method: string, allow: string[]): Reply => ({
    ...error(405, 'method_not_allowed', `${method} is not allowed here`),
    headers: { Allow: allow.join(', ') },
  });
  const show = (c: (typeof categories)[number]) =>
    fault === 'id-as-string' ? { ...c, id: String(c.id) } : c;

  function route(method: string, path: string, raw: string, contentType: string | undefined): Reply {
    if (path === '/v1/categories') {
      if (method === 'GET')
        return { status: 200, body: fault === 'state-not-kept' ? [] : categories.map(show) };
      if (method !== 'POST') return notAllowed(method, ['GET', 'POST']);
      if (!contentType?.startsWith('application/json'))
        return error(415, 'unsupported_media_type', 'Use JSON.');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return error(400, 'invalid_json', 'The body is not JSON.');
      }
      const problem = validateNewCategory(body);
      if (problem) return error(400, 'invalid_request', problem);
      const input = body as { name: string; description?: string };
      const created = {
        id: nextId++,
        name: input.name,
        ...(input.description ? { description: input.description } : {}),
      };
      categories.push(created);
      return { status: fault === 'wrong-status' ? 200 : 201, body: show(created) };
    }
    if (/^\/v1\/pets\/[^/]+$/.test(path) || path === '/v1/store/orders') {
      if (method !== 'GET') return notAllowed(method, ['GET']);
      return { status: 200, body: path.includes('/pets/') ? { id: 1, name: 'Rex' } : [] };
    }
    return error(404, 'not_found', `No resource at ${path}.`);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const known = token !== undefined && token in keys;
      const identity = known ? `key:${token}` : `addr:${req.socket.remoteAddress ?? ''}`;
      const limit = known ? (keys[token] ?? 60) : (options.anonymousLimit ?? 60);
      let w = windows.get(identity);
      if (!w || now >= w.start + WINDOW_MS) w = { start: now, used: 0 };
      windows.set(identity, w);
      w.used += 1;
      const reset = Math.ceil((w.start + WINDOW_MS) / 1000);
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': String(Math.max(0, limit - w.used)),
        'X-RateLimit-Reset': String(reset),
      };
      if (fault === 'missing-rate-limit-header') delete headers['X-RateLimit-Reset'];
      // Without any reset information the runner cannot pace: that fault drops the IETF fields too.
      if (options.ietf !== false && fault !== 'missing-rate-limit-header')
        Object.assign(headers, ietfFields(fault, limit, w.used, reset - now / 1000));
      let reply: Reply;
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (w.used > limit && fault !== 'no-429') {
        rejected.set(identity, (rejected.get(identity) ?? 0) + 1);
        reply = error(429, 'rate_limited', 'Rate limit exceeded.');
        if (fault !== '429-without-retry-after')
          headers['Retry-After'] = String(
            fault === 'ietf-early-retry-after' ? 0 : Math.max(1, reset - Math.floor(now / 1000)),
          );
      } else if (!known && fault !== 'auth-ignored' && path.startsWith('/v1/'))
        reply = error(401, 'unauthorized', 'The API key is missing or invalid.');
      else
        reply = route(
          req.method ?? 'GET',
          path,
          Buffer.concat(chunks).toString('utf8'),
          req.headers['content-type'],
        );
      res.writeHead(reply.status, { ...headers, ...reply.headers }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    rejected,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function validateNewCategory(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'body must be object';
  const b = body as Record<string, unknown>;
  if (!('name' in b)) return '/name is required';
  if (typeof b.name !== 'string') return '/name must be string';
  if ('description' in b && typeof b.description !== 'string') return '/description must be string';
  if ('id' in b) return '/id is not allowed';
  const unknown = Object.keys(b).find((k) => k !== 'name' && k !== 'description');
  if (unknown) return `/${unknown} is not allowed`;
  return undefined;
}

/** The IETF fields for a window of `limit` with `used` requests and `secondsLeft` (with one fault at a time). */
export function ietfFields(
  fault: Fault | undefined,
  limit: number,
  used: number,
  secondsLeft: number,
): Record<string, string> {
  const t = Math.max(1, Math.ceil(secondsLeft));
  const r = fault === 'ietf-no-countdown' ? limit : Math.max(0, limit - used);
  if (fault === 'ietf-bad-syntax')
    return { 'RateLimit-Policy': `"minute";q=${limit};w=60`, RateLimit: `minute;r=${r};t=oops` };
  return {
    'RateLimit-Policy': `"minute";q=${limit};w=60`,
    RateLimit: `"minute";r=${fault === 'ietf-r-above-q' ? Math.max(0, limit + 5 - used) : r};t=${t}`,
  };
}

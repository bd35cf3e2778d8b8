/** Shared set-up for the in-process mock tests: a server on a clock the test moves. */
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Clock } from '../../mock/core/context';
import { createMockServer, type MockServer, type MockServerOptions } from '../../mock/node/index';

/** 12:00:10 UTC: ten seconds into a minute, far from the day boundary. */
export const T0 = Date.UTC(2026, 10, 22, 12, 0, 10);

export interface TestClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function testClock(start = T0): TestClock {
  let t = start;
  return { now: () => t, set: (ms) => (t = ms), advance: (ms) => (t += ms) };
}

export const KEYS = [
  { key: 'free-key', plan: 'free' as const },
  { key: 'free-key-2', plan: 'free' as const },
  { key: 'pro-key', plan: 'pro' as const },
  { key: 'business-key', plan: 'business' as const },
  { key: 'ent-key', plan: 'enterprise' as const, perMinute: 5000, perDay: 2_000_000 },
];

export interface Harness {
  mock: MockServer;
  clock: TestClock;
  http: ReturnType<typeof request>;
}

/** A mock with the test keys, the default seed and a test clock. */
export async function harness(options: MockServerOptions = {}): Promise<Harness> {
  const clock = testClock();
  const mock = await createMockServer({ keys: KEYS, clock, ...options });
  // One listening server per harness: supertest then reuses it instead of listening per request.
  await mock.listen(0);
  return { mock, clock, http: request(mock.server) };
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

export const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** Every error is the Error shape with the HTTP status, as JSON, with the rate-limit headers. */
export function expectError(res: request.Response, status: number, code?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({ code: expect.any(String), message: expect.any(String), status });
  if (code) expect(res.body.code).toBe(code);
  for (const h of RATE_HEADERS) expect(res.headers[h]).toMatch(/^\d+$/);
}

/** Send exact bytes (supertest re-serialises Buffers under a JSON content type). */
export function rawRequest(
  server: Server,
  options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{
  status: number;
  headers: IncomingHttpHeaders;
  body: { code?: string; status?: number } | undefined;
}> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method, path: options.path, headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text ? JSON.parse(text) : undefined,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

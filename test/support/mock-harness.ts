/** Shared set-up for the in-process mock tests: a server on a clock the test moves. */
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Clock } from '../../mock/core/context';
import { createFetchHandler } from '../../mock/adapters/fetch';
import type { SeedData } from '../../mock/core/stores/types';
import { DEFAULT_SEED_FILE } from '../../mock/node/config';
import { loadSeedFile } from '../../mock/node/seed';
import { createCallbackSender } from '../../mock/node/callbacks';
import { DEFAULT_SPEC_PATH, loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { listen, serveFetch } from './fetch-bridge';
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

/** Which adapter the behaviour suites run against: set per jest project (jest.config.js). */
export const ADAPTER: 'node-http' | 'fetch' =
  (globalThis as { MOCK_ADAPTER?: 'node-http' | 'fetch' }).MOCK_ADAPTER ?? 'node-http';

/** A mock with the test keys, the default seed and a test clock, on the adapter of this jest project. */
export async function harness(options: MockServerOptions = {}): Promise<Harness> {
  const clock = testClock();
  const mock = await createTestMock({ keys: KEYS, clock, ...options });
  // One listening server per harness: supertest then reuses it instead of listening per request.
  await mock.listen(0);
  return { mock, clock, http: request(mock.server) };
}

/** A mock on the adapter of this jest project (not listening yet). */
export function createTestMock(options: MockServerOptions): Promise<MockServer> {
  return ADAPTER === 'fetch' ? fetchMock(options) : createMockServer(options);
}

/** The fetch adapter over the same document, keys and seed, looking like a MockServer to the suites. */
async function fetchMock(options: MockServerOptions): Promise<MockServer> {
  const { keys, seed, clock, records, limiter, log, sleep, ...rest } = options;
  const { watchIntervalMs, ...config } = rest;
  void watchIntervalMs; // no files to watch in the fetch adapter
  const specPath = config.specPath ?? DEFAULT_SPEC_PATH;
  const spec = await loadSpecOrThrow(specPath);
  const seedData =
    seed ?? (await loadSeed(config.seedFile === undefined ? DEFAULT_SEED_FILE : config.seedFile, spec));
  // The fetch entry sends no callbacks itself: the test gives it the Node layer's sender as its outbox.
  const callbacks = createCallbackSender({
    hosts: config.callbackHosts ?? ['loopback'],
    timeoutMs: config.callbackTimeoutMs,
  });
  const handler = await createFetchHandler({
    document: spec,
    keys,
    seed: seedData,
    clock,
    records,
    limiter,
    log,
    sleep,
    outbox: callbacks.outbox,
    config,
  });
  const server = serveFetch(handler);
  const deps = { ...handler.deps, allowShortKeys: true, callbacks } as MockServer['deps'];
  return {
    server,
    deps,
    listen: async () => `${await listen(server)}${spec.basePath}`,
    reset: async () => {
      await deps.records.reset(seedData, deps.model.resources);
      await deps.limiter.reset();
      deps.listCache.clear();
      deps.readCache.clear();
    },
    reload: async () => ({ ok: false, error: 'the fetch adapter has no files to reload' }),
    inferred: () => [],
    warnings: [],
    close: () =>
      new Promise<void>((resolve) => {
        callbacks.close();
        server.close(() => resolve());
      }),
    drain: () => new Promise((resolve) => server.close(() => resolve({ drained: true, cut: 0 }))),
  };
}

async function loadSeed(file: string | null, spec: LoadedSpec): Promise<SeedData> {
  if (!file) return {};
  const loaded = await loadSeedFile(file, spec);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.seed;
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

/**
 * The pet store API mocked in a jest test with msw/node: `createMswHandlers` runs the mock's engine (validation,
 * auth, state, rate limits) inside the test process, and plain `fetch` calls it. No server listens anywhere.
 * Copy this into a frontend project's tests; `petstore-contract-tools/msw` is this package's `./msw` entry point.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setupServer } from 'msw/node';
import { parse } from 'yaml';
import { createMswHandlers } from 'petstore-contract-tools/msw';

const ROOT = path.join(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
// Any origin works: the handlers answer the document's base path (/v1) wherever it is.
const API = 'https://petstore.test/v1';

describe('the pet store API mocked with msw/node', () => {
  let server: ReturnType<typeof setupServer>;
  // An injected clock standing 20 s into a minute: the minute window cannot roll over during the test.
  const now = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;

  beforeAll(async () => {
    const handlers = await createMswHandlers({
      document: parse(read('spec/openapi.yaml')), // in a browser: the document as an object, passed in
      keys: JSON.parse(read('fixtures/keys.json')),
      seed: JSON.parse(read('fixtures/seed.json')),
      clock: { now: () => now },
    });
    server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
  });
  // MSW's own reset also puts the mock back to the seed (MSW 2 from 2.13.5, MSW 3): each test starts fresh.
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  const call = (pathAndQuery: string, key: string | null, init: RequestInit = {}) =>
    fetch(`${API}${pathAndQuery}`, {
      ...init,
      headers: {
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
        ...(init.body ? { 'Content-Type': 'application/json' } : {}),
      },
    });

  /** Every error is the document's Error shape, as JSON, with the rate-limit headers. */
  async function expectError(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ code, message: expect.any(String), status });
    return body;
  }

  it('lists the seed categories', async () => {
    const res = await call('/categories', 'pro-demo-key');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('299');
    const list = (await res.json()) as { id: number; name: string }[];
    expect(list.map((c) => c.name)).toEqual(['dog', 'cat', 'rabbit']);
  });

  it('creates a category, which the next list holds', async () => {
    const created = await call('/categories', 'pro-demo-key', {
      method: 'POST',
      body: JSON.stringify({ name: 'hamster', description: 'Small rodents' }),
    });
    expect(created.status).toBe(201);
    const category = (await created.json()) as { id: number; name: string; description: string };
    expect(category).toEqual({ id: expect.any(Number), name: 'hamster', description: 'Small rodents' });

    const list = (await (await call('/categories', 'pro-demo-key')).json()) as { id: number }[];
    expect(list).toHaveLength(4);
    expect(list.at(-1)).toEqual(category);
    expect(new Set(list.map((c) => c.id)).size).toBe(list.length);
  });

  it('starts each test from the seed: the category created by the test before is gone', async () => {
    const list = (await (await call('/categories', 'pro-demo-key')).json()) as { name: string }[];
    expect(list.map((c) => c.name)).toEqual(['dog', 'cat', 'rabbit']);
  });

  it('refuses an invalid body with 400 naming the field', async () => {
    const res = await call('/categories', 'pro-demo-key', {
      method: 'POST',
      body: JSON.stringify({ name: 42 }),
    });
    const body = await expectError(res, 400, 'invalid_request');
    expect(body.message).toContain('/name');
  });

  it('refuses a request without a key with 401 and WWW-Authenticate', async () => {
    const res = await call('/categories', null);
    await expectError(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers the 61st request of a minute on a free key with 429 and Retry-After', async () => {
    for (let i = 1; i <= 60; i++) {
      const res = await call('/categories', 'free-demo-key');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(60 - i));
    }
    const limited = await call('/categories', 'free-demo-key');
    await expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('40'); // the minute window ends 40 s after the clock
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another key is not affected.
    expect((await call('/categories', 'pro-demo-key')).status).toBe(200);
  });
});

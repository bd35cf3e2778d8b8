/**
 * Issue 33: the MSW entry (`createMswHandlers`, `petstore-contract-tools/msw`) on MSW 2 and on MSW 3, in Node:
 * the same handlers under `setupServer` (both) and MSW 3's `defineNetwork()`; a create then a read, 401 without a
 * key, 400 on an invalid body, the rate-limit headers, and MSW's own reset (`resetHandlers()`) putting the mock's
 * state back to the seed, as `handlers.reset()` does.
 *
 * MSW 3 is installed as `msw3` (npm:msw@3); the entry imports `msw`, which this file points at `msw3` for the MSW 3
 * suites (`jest.doMock` in an isolated module registry), as a project with `msw` 3 installed resolves it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { MswHandlerOptions, MswHandlers } from '../mock/adapters/msw';
import { createMemoryLimiterStore } from '../mock/core/stores/memory-limiter-store';
import type { LimiterStore } from '../mock/core/stores/types';

const ROOT = path.join(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const API = 'https://petstore.test/v1';
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
/** MSW 3 declares `engines: node >=22.12` and uses what Node 22 added (Set methods); CI's Node 20 skips it. */
const MSW3_RUNS = major > 22 || (major === 22 && minor >= 12);

/** What a test needs of MSW's network, whichever API started it. */
interface Network {
  resetHandlers(): void;
  close(): Promise<void>;
}
interface Setup {
  /** The major version of the MSW loaded, and its handler class. */
  version: string;
  HttpHandler: abstract new (...args: never[]) => unknown;
  createMswHandlers(options: MswHandlerOptions): Promise<MswHandlers>;
  start(handlers: MswHandlers): Promise<Network>;
}
interface SetupServerModule {
  setupServer(...handlers: unknown[]): {
    listen(options: Record<string, string>): void;
    close(): void;
    resetHandlers(): void;
  };
  defaultNetworkOptions?: Record<string, unknown>;
}
interface ExperimentalModule {
  defineNetwork(options: Record<string, unknown>): {
    enable(): unknown;
    disable(): unknown;
    resetHandlers(): void;
  };
}

/** The entry and MSW's Node API from one module registry, with `msw` resolving to MSW 2 (`msw`) or 3 (`msw3`). */
function loadSetup(msw: 'msw' | 'msw3', via: 'setupServer' | 'defineNetwork'): Setup {
  let setup: Setup | undefined;
  jest.isolateModules(() => {
    if (msw === 'msw3') jest.doMock('msw', () => jest.requireActual('msw3'));
    /* eslint-disable @typescript-eslint/no-require-imports */
    const entry = require('../mock/adapters/msw') as typeof import('../mock/adapters/msw');
    const node = require(`${msw}/node`) as SetupServerModule;
    const experimental = msw === 'msw3' ? (require('msw3/experimental') as ExperimentalModule) : null;
    const core = require(msw) as Pick<Setup, 'HttpHandler'>;
    const { version } = require(`${msw}/package.json`) as { version: string };
    /* eslint-enable @typescript-eslint/no-require-imports */
    // MSW 3 renamed onUnhandledRequest to onUnhandledFrame.
    const strict: Record<string, string> =
      msw === 'msw3' ? { onUnhandledFrame: 'error' } : { onUnhandledRequest: 'error' };
    setup = {
      version,
      HttpHandler: core.HttpHandler,
      createMswHandlers: entry.createMswHandlers,
      async start(handlers) {
        if (via === 'setupServer') {
          const server = node.setupServer(...handlers);
          server.listen(strict);
          return { resetHandlers: () => server.resetHandlers(), close: async () => server.close() };
        }
        const network = experimental!.defineNetwork({
          ...node.defaultNetworkOptions,
          handlers: [...handlers],
          ...strict,
        });
        await network.enable();
        return {
          resetHandlers: () => network.resetHandlers(),
          close: async () => void (await network.disable()),
        };
      },
    };
  });
  return setup!;
}

/**
 * A memory limiter whose reset takes 100 ms, as a shared store's would: a request must not overtake it. `resets`
 * counts the resets begun.
 */
function slowResetLimiter(): LimiterStore & { resets: number } {
  const inner = createMemoryLimiterStore();
  const limiter = {
    ...inner,
    resets: 0,
    reset: async () => {
      limiter.resets++;
      await new Promise((resolve) => setTimeout(resolve, 100));
      await inner.reset();
    },
  };
  return limiter;
}

const cases = [
  { name: 'MSW 2, setupServer', msw: 'msw', major: '2', via: 'setupServer', runs: true },
  { name: 'MSW 3, setupServer', msw: 'msw3', major: '3', via: 'setupServer', runs: MSW3_RUNS },
  { name: 'MSW 3, defineNetwork', msw: 'msw3', major: '3', via: 'defineNetwork', runs: MSW3_RUNS },
] as const;

for (const c of cases) {
  if (!c.runs)
    process.stderr.write(`skipping "${c.name}": MSW 3 needs Node >= 22.12, this is ${process.version}\n`);
  (c.runs ? describe : describe.skip)(`the MSW entry on ${c.name}`, () => {
    let setup: Setup;
    let handlers: MswHandlers;
    let network: Network;
    const limiter = slowResetLimiter();
    // An injected clock 20 s into a minute: the minute window cannot roll over during the test.
    const now = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;

    beforeAll(async () => {
      setup = loadSetup(c.msw, c.via);
      handlers = await setup.createMswHandlers({
        document: parse(read('spec/openapi.yaml')),
        keys: JSON.parse(read('fixtures/keys.json')),
        seed: JSON.parse(read('fixtures/seed.json')),
        clock: { now: () => now },
        limiter,
      });
      network = await setup.start(handlers);
    });
    afterAll(() => network?.close());

    const call = (pathAndQuery: string, key: string | null, body?: unknown) =>
      fetch(`${API}${pathAndQuery}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...(key ? { Authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const names = async (key = 'pro-demo-key') =>
      ((await (await call('/categories', key)).json()) as { name: string }[]).map((c) => c.name);

    /** Every error is the document's Error shape, as JSON, with the rate-limit headers. */
    async function expectError(res: Response, status: number, code: string) {
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toEqual({ code, message: expect.any(String), status });
      return body;
    }

    it(`the entry's handlers are MSW ${c.major}'s own`, () => {
      expect(setup.version.split('.')[0]).toBe(c.major);
      expect(handlers).toHaveLength(2);
      for (const handler of handlers) expect(handler).toBeInstanceOf(setup.HttpHandler);
    });

    it('creates a category, then reads it back in the list', async () => {
      const created = await call('/categories', 'pro-demo-key', { name: 'hamster', description: 'Small' });
      expect(created.status).toBe(201);
      const category = (await created.json()) as { id: number };
      expect(category).toEqual({ id: expect.any(Number), name: 'hamster', description: 'Small' });
      const list = (await (await call('/categories', 'pro-demo-key')).json()) as { id: number }[];
      expect(list.at(-1)).toEqual(category);
    });

    it('refuses a request without a key with 401 and WWW-Authenticate', async () => {
      const res = await call('/categories', null);
      await expectError(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    });

    it('refuses an invalid body with 400 naming the field, and stores nothing', async () => {
      const before = await names();
      const body = await expectError(
        await call('/categories', 'pro-demo-key', { name: 42 }),
        400,
        'invalid_request',
      );
      expect(body.message).toContain('/name');
      expect(await names()).toEqual(before);
    });

    it('counts each request in the rate-limit headers and answers the 61st of a minute on a free key 429', async () => {
      for (let i = 1; i <= 60; i++) {
        const res = await call('/categories', 'free-demo-key');
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe('60');
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(60 - i));
      }
      const limited = await call('/categories', 'free-demo-key');
      await expectError(limited, 429, 'rate_limited');
      expect(limited.headers.get('retry-after')).toBe('40');
    });

    it("MSW's resetHandlers() puts the mock back to the seed: records and counters", async () => {
      expect(await names()).toContain('hamster');
      expect((await call('/categories', 'free-demo-key')).status).toBe(429);
      const resets = limiter.resets;
      network.resetHandlers();
      // Not awaited (MSW's reset is synchronous): the next request waits for the mock's reset.
      const first = await call('/categories', 'free-demo-key');
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
      expect(await names()).toEqual(['dog', 'cat', 'rabbit']);
      // MSW resets each of the two handlers: one reset of the mock serves both.
      expect(limiter.resets).toBe(resets + 1);
    });

    it('handlers.reset() does the same, awaited', async () => {
      expect((await call('/categories', 'pro-demo-key', { name: 'ferret' })).status).toBe(201);
      expect(await names()).toContain('ferret');
      await handlers.reset();
      expect(await names()).toEqual(['dog', 'cat', 'rabbit']);
      // The handlers keep answering after a reset, ids included.
      const again = await call('/categories', 'pro-demo-key', { name: 'ferret' });
      expect(again.status).toBe(201);
      expect(await names()).toEqual(['dog', 'cat', 'rabbit', 'ferret']);
    });
  });
}

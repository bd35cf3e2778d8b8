/**
 * The fetch adapter in-process (issue 14): what a frontend test suite pays per request when its mock is
 * `createFetchHandler` called directly, no sockets. The compiled build (dist/, what ships), the default spec,
 * the bench's keys; one request at a time, as a test awaits each call: build the Request, get the Response,
 * read its body. Requests per second for the list (ten stored), a create, a 401 and a 404.
 */
import path from 'node:path';
import { ROOT } from './targets';
import { BAD_KEY, CATEGORIES, ENT_KEY, categories } from './workloads';

type FetchModule = typeof import('../mock/adapters/fetch');
type LoadModule = typeof import('../spec/load');

export interface FetchAdapterResult {
  /** Requests per second, one at a time, by workload name (list, create, unauthorized, not-found). */
  rps: Record<string, number>;
  /** What each answered (status: count), to show no run measured the wrong thing. */
  statuses: Record<string, Record<string, number>>;
}

const BASE = 'http://mock.test';
const ent = { Authorization: `Bearer ${ENT_KEY}` };
const createBody = JSON.stringify({ name: 'bench', description: 'created by npm run bench' });

const REQUESTS: Record<string, () => Request> = {
  list: () => new Request(`${BASE}${CATEGORIES}`, { headers: ent }),
  create: () =>
    new Request(`${BASE}${CATEGORIES}`, {
      method: 'POST',
      headers: { ...ent, 'Content-Type': 'application/json' },
      body: createBody,
    }),
  unauthorized: () =>
    new Request(`${BASE}${CATEGORIES}`, { headers: { Authorization: `Bearer ${BAD_KEY}` } }),
  'not-found': () => new Request(`${BASE}/v1/nowhere`, { headers: ent }),
};

/** `seconds` of each workload after a short warm-up; the store is reset before each (ten categories). */
export async function measureFetchAdapter(seconds: number): Promise<FetchAdapterResult> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createFetchHandler } = require(
    path.join(ROOT, 'dist', 'mock', 'adapters', 'fetch.js'),
  ) as FetchModule;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadSpec } = require(path.join(ROOT, 'dist', 'spec', 'load.js')) as LoadModule;
  const loaded = await loadSpec();
  if (!loaded.ok) throw new Error(loaded.error);
  const handler = await createFetchHandler({
    document: loaded.spec,
    keys: [{ key: ENT_KEY, plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000_000 }],
    seed: { categories: categories(10) },
    // The 401s come from one address: no anonymous limit may turn them into 429s.
    config: { maxRecords: 1_000_000, plans: { free: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } } },
  });
  const { deps } = handler;
  const rps: Record<string, number> = {};
  const statuses: Record<string, Record<string, number>> = {};
  for (const [name, request] of Object.entries(REQUESTS)) {
    await deps.records.reset(deps.seed, deps.model.resources);
    await deps.limiter.reset();
    deps.listCache.clear();
    deps.readCache.clear();
    const seen: Record<string, number> = {};
    const run = async (ms: number): Promise<number> => {
      let n = 0;
      const end = performance.now() + ms;
      while (performance.now() < end) {
        const res = await handler(request());
        await res.arrayBuffer();
        seen[res.status] = (seen[res.status] ?? 0) + 1;
        n++;
      }
      return n;
    };
    await run(Math.min(500, seconds * 250));
    for (const k of Object.keys(seen)) delete seen[k];
    const t0 = performance.now();
    const n = await run(seconds * 1000);
    rps[name] = n / ((performance.now() - t0) / 1000);
    statuses[name] = seen;
  }
  return { rps, statuses };
}

/**
 * The bench's workloads (issues 5 and 14): the request each sends, the path, and which servers run it.
 * Keys and addresses are chosen so no answer turns into a 429: the enterprise key has a limit no run reaches,
 * and the 401 workload spreads its anonymous callers over many forwarded addresses (our mock runs with
 * `--trust-proxy loopback`), so none reaches the anonymous 60 per minute.
 */
export const ENT_KEY = 'bench-enterprise-key';
export const PRO_KEY = 'bench-professional-key';
export const BAD_KEY = 'bench-no-such-key';
export const CATEGORIES = '/v1/categories';

export type WorkloadName = 'list' | 'create' | 'unauthorized' | 'not-found' | 'by-id-10' | 'by-id-10k';

/** The servers: our mock (default spec; the full spec with 10 or 10,000 stored), Prism, the bare ceiling. */
export type TargetName = 'ours' | 'ours-log' | 'ours-10' | 'ours-10k' | 'prism' | 'prism-log' | 'ceiling';
export type TargetKind = 'ours' | 'prism' | 'ceiling';

/** A request header whose value the load changes every few milliseconds (one client address after another). */
export interface RotatingHeader {
  name: string;
  /** The value for the i-th change (i counts up over the whole run, across connections). */
  value(i: number): string;
  everyMs: number;
}

export interface BenchRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string;
}

export interface Workload {
  name: WorkloadName;
  title: string;
  path: string;
  /** What our mock should answer; the status mix is shown, and a goal is missed when it differs. */
  expect: number;
  /** Our mock's instance for this workload, then what it is compared with. */
  ours: 'ours' | 'ours-10' | 'ours-10k';
  others: TargetName[];
  request: BenchRequest;
  /** A header each connection changes as it runs (the 401's forwarded client addresses). */
  rotate?: RotatingHeader;
  /** Our mock's store is emptied this often during the run (POST /_mock/reset), to stay under its record cap. */
  resetEveryMs?: number;
}

const ent = { Authorization: `Bearer ${ENT_KEY}` };

/**
 * Anonymous callers from 65,536 addresses (each connection takes the next every 20 ms): 60 per minute each
 * allows about 3.9 million 401s a minute, far more than a run sends, so none turns into a 429.
 */
const FORWARDED: RotatingHeader = {
  name: 'X-Forwarded-For',
  value: (i) => `10.${100 + ((i >> 16) & 1)}.${(i >> 8) & 255}.${i & 255}`,
  everyMs: 20,
};

const byId = (stored: number): string => `${CATEGORIES}/${stored}`;

/** Every workload; `logs` adds the logged variants of ours and Prism to the list and create comparisons. */
export function workloads(logs: boolean): Workload[] {
  const withPrism: TargetName[] = logs ? ['ceiling', 'prism', 'ours-log', 'prism-log'] : ['ceiling', 'prism'];
  const unauthorized: BenchRequest = {
    method: 'GET',
    headers: { Authorization: `Bearer ${BAD_KEY}` },
    body: '',
  };
  return [
    {
      name: 'list',
      title: 'GET /v1/categories (10 stored)',
      path: CATEGORIES,
      expect: 200,
      ours: 'ours',
      others: withPrism,
      request: { method: 'GET', headers: { ...ent }, body: '' },
    },
    {
      name: 'create',
      title: 'POST /v1/categories',
      path: CATEGORIES,
      expect: 201,
      ours: 'ours',
      others: withPrism,
      request: {
        method: 'POST',
        headers: { ...ent, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'bench', description: 'created by npm run bench' }),
      },
      // At 100,000 creates a second, 5,000 between two resets: half the default --max-records.
      resetEveryMs: 50,
    },
    {
      name: 'unauthorized',
      title: '401 (unknown key, many forwarded client addresses)',
      path: CATEGORIES,
      expect: 401,
      ours: 'ours',
      others: ['ceiling'],
      request: unauthorized,
      rotate: FORWARDED,
    },
    {
      name: 'not-found',
      title: '404 (GET /v1/nowhere, enterprise key)',
      path: '/v1/nowhere',
      expect: 404,
      ours: 'ours',
      others: ['ceiling'],
      request: { method: 'GET', headers: { ...ent }, body: '' },
    },
    {
      name: 'by-id-10',
      title: 'GET /v1/categories/10 (10 stored, petstore-full.yaml)',
      path: byId(10),
      expect: 200,
      ours: 'ours-10',
      others: ['ceiling'],
      request: { method: 'GET', headers: { ...ent }, body: '' },
    },
    {
      name: 'by-id-10k',
      title: 'GET /v1/categories/10000 (10,000 stored, petstore-full.yaml)',
      path: byId(10_000),
      expect: 200,
      ours: 'ours-10k',
      others: [],
      request: { method: 'GET', headers: { ...ent }, body: '' },
    },
  ];
}

/** `count` categories for a seed file (the list's ten, and the by-id stores). */
export function categories(count: number): Array<{ name: string; description: string }> {
  return Array.from({ length: count }, (_, i) => ({
    name: `category-${i + 1}`,
    description: `Bench category number ${i + 1}`,
  }));
}

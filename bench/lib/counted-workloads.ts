/**
 * The workloads `bench/instructions.ts` counts, each request as `npm run bench` sends it (bench/workloads.ts):
 * the list with ten stored, the create (the store emptied every few hundred creates, as the bench's reset
 * every 50 ms does), the 401 (an unknown key, the forwarded client address changing every few requests, as
 * each bench connection changes it every 20 ms) and the 404.
 */
import { BAD_KEY, CATEGORIES, ENT_KEY, categories } from '../workloads';

export type CountedName = 'list' | 'create' | 'unauthorized' | 'not-found';

export interface CountedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface CountedWorkload {
  name: CountedName;
  /** The status every counted answer must have. */
  expect: number;
  /** Our mock's flags beyond the keys file, as the bench starts it for this workload. */
  flags: string[];
  /** The i-th request of a run (i counts the warm-up too). */
  request(i: number): CountedRequest;
  /** Sent before the warm-up (the list's ten categories). */
  prepare: CountedRequest[];
  /** Sent before every `every`-th request (the create's reset). */
  reset?: { every: number; request: CountedRequest };
}

const ent = { Authorization: `Bearer ${ENT_KEY}` };
const json = { ...ent, 'Content-Type': 'application/json' };
const admin = { ...ent, 'X-Mock-Admin': '1' };
const emptied: CountedRequest = { method: 'POST', path: '/_mock/reset', headers: admin, body: '' };
/** The bench's flags for ours (bench/targets.ts `oursArgs`), the list's kept as its earlier counts had them. */
const BENCH_FLAGS = ['--trust-proxy', 'loopback', '--ban-threshold', '0'];

/** The workload `name`; throws on a name not counted. */
export function countedWorkload(name: string): CountedWorkload {
  switch (name) {
    case 'list':
      return {
        name,
        expect: 200,
        flags: [],
        request: () => ({ method: 'GET', path: CATEGORIES, headers: ent, body: '' }),
        prepare: [
          emptied,
          ...categories(10).map((c) => ({
            ...emptied,
            path: CATEGORIES,
            headers: json,
            body: JSON.stringify(c),
          })),
        ],
      };
    case 'create': {
      const body = JSON.stringify({ name: 'bench', description: 'created by npm run bench' });
      return {
        name,
        expect: 201,
        flags: BENCH_FLAGS,
        request: () => ({ method: 'POST', path: CATEGORIES, headers: json, body }),
        prepare: [],
        reset: { every: 250, request: emptied },
      };
    }
    case 'unauthorized':
      return {
        name,
        expect: 401,
        flags: BENCH_FLAGS,
        // Three requests per address: 50 connections at ~7,500 req/s change theirs every 20 ms.
        request: (i) => {
          const a = Math.floor(i / 3);
          const forwarded = `10.${100 + ((a >> 16) & 1)}.${(a >> 8) & 255}.${a & 255}`;
          const headers = { Authorization: `Bearer ${BAD_KEY}`, 'X-Forwarded-For': forwarded };
          return { method: 'GET', path: CATEGORIES, headers, body: '' };
        },
        prepare: [],
      };
    case 'not-found':
      return {
        name,
        expect: 404,
        flags: BENCH_FLAGS,
        request: () => ({ method: 'GET', path: '/v1/nowhere', headers: ent, body: '' }),
        prepare: [],
      };
    default:
      throw new Error(`--workload ${name}: one of list, create, unauthorized, not-found`);
  }
}

/**
 * The bench's workloads (issue 5): the request each sends, and what each target needs before a round
 * (our mock: 10 stored categories for the list, a spent free key for the 429). Prism has no state and no
 * limiter: it lists its example, and answers the 429 workload only because `Prefer: code=429` asks it to.
 */
export const ENT_KEY = 'bench-enterprise-key';
export const FREE_KEY = 'bench-free-key';
export const BAD_KEY = 'bench-no-such-key';

export type WorkloadName = 'list' | 'create' | 'unauthorized' | 'invalid' | 'limited';

export interface BenchRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string;
}

export interface Workload {
  name: WorkloadName;
  title: string;
  /** What the mock should answer (the status mix is recorded and shown when it differs). */
  expect: number;
  request(target: 'ours' | 'prism' | 'ceiling'): BenchRequest;
}

const json = { 'Content-Type': 'application/json' };
const ent = { Authorization: `Bearer ${ENT_KEY}` };

export const WORKLOADS: readonly Workload[] = [
  {
    name: 'list',
    title: 'GET /v1/categories (10 stored)',
    expect: 200,
    request: () => ({ method: 'GET', headers: { ...ent }, body: '' }),
  },
  {
    name: 'create',
    title: 'POST /v1/categories',
    expect: 201,
    request: () => ({
      method: 'POST',
      headers: { ...ent, ...json },
      body: JSON.stringify({ name: 'bench', description: 'created by npm run bench' }),
    }),
  },
  {
    name: 'unauthorized',
    title: '401 (unknown key)',
    expect: 401,
    request: () => ({ method: 'GET', headers: { Authorization: `Bearer ${BAD_KEY}` }, body: '' }),
  },
  {
    name: 'invalid',
    title: '400 (name not a string)',
    expect: 400,
    request: () => ({ method: 'POST', headers: { ...ent, ...json }, body: '{"name":42}' }),
  },
  {
    name: 'limited',
    title: '429 (free key spent)',
    expect: 429,
    request: (target) => ({
      method: 'GET',
      headers: { Authorization: `Bearer ${FREE_KEY}`, ...(target === 'prism' ? { Prefer: 'code=429' } : {}) },
      body: '',
    }),
  },
];

/** The ten categories the list workload reads. */
export const TEN = Array.from({ length: 10 }, (_, i) => ({
  name: `category-${i + 1}`,
  description: `Bench category number ${i + 1}`,
}));

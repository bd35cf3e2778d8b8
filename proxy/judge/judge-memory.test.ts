/**
 * The judge under hostile traffic keeps bounded memory: thousands of items created, each updated with a body
 * near the proxy's body limit, and thousands of violations with large bodies. What it keeps per item, per
 * violation and per recent exchange is an excerpt, not the body.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { createJudge } from './judge';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

let spec: LoadedSpec;
beforeAll(async () => {
  // The full pet store document: categories with item paths (read, replace, delete).
  spec = await loadSpecOrThrow(path.join(__dirname, '..', '..', 'fixtures', 'specs', 'petstore-full.yaml'));
});

const AUTH = { authorization: 'Bearer pro-key', 'content-type': 'application/json' };
const rate = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '9999999999' };

it('holds at most a bounded excerpt per item and per exchange, whatever the bodies', () => {
  collect();
  const before = process.memoryUsage().heapUsed;
  const judge = createJudge(spec, Date.now, { maxTracked: 10_000, maxKept: 10_000, maxRecent: 1000 });
  const big = 'x'.repeat(200_000);
  for (let id = 1; id <= 2000; id++) {
    const create = { method: 'POST', url: '/v1/categories', headers: AUTH, body: '{"name":"n"}' };
    const created = judge.request(create);
    judge.response(create, created.route, created.problems, {
      status: 201,
      headers: { 'content-type': 'application/json', ...rate },
      body: JSON.stringify({ id, name: 'n' }),
    });
    // A 2xx update with a huge (invalid) body, and a huge invalid answer: a violation on each side.
    const update = { method: 'PUT', url: `/v1/categories/${id}`, headers: AUTH, body: `{"name":"${big}"}` };
    const updated = judge.request(update);
    judge.response(update, updated.route, updated.problems, {
      status: 200,
      headers: { 'content-type': 'application/json', ...rate },
      body: JSON.stringify({ id, name: big }),
    });
  }
  const rules = new Set(judge.snapshot().violations.map((v) => v.rule));
  expect(rules.has('request.path')).toBe(false); // the updates reached a tracked item
  expect(judge.snapshot().violations.length).toBeGreaterThan(2000);
  collect();
  const retainedMb = (process.memoryUsage().heapUsed - before) / 1e6;
  // 2,000 bodies of 200 kB each way: 800 MB if kept whole; excerpts only: a few tens of MB.
  expect(retainedMb).toBeLessThan(120);
  expect(judge.recent().length).toBeLessThanOrEqual(1000);
});

/**
 * Issue 22: the runner on a document of 1,000 operations, narrowed by --operation, --tag and --path: only the
 * selected operations are sent generated requests and counted in coverage; the run stays short.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { syntheticDocument } from '../../bench/lib/synthetic-document';
import { createFetchHandler } from '../../mock/adapters/fetch';
import { loadSpecOrThrow } from '../../spec/load';
import { runConformance } from '../run';
import type { ConformanceOptions } from '../types';

const KEY = 'filters-test-key-0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'filters-'));
const file = path.join(dir, 'synthetic-1000.json');
fs.writeFileSync(file, JSON.stringify(syntheticDocument(1000)));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(filter: Partial<ConformanceOptions>) {
  const spec = await loadSpecOrThrow(file);
  const handler = await createFetchHandler({
    document: spec,
    keys: [{ key: KEY, plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 }],
  });
  const paths = new Set<string>();
  const report = await runConformance({
    target: 'http://mock.test/v1',
    key: KEY,
    specFile: file,
    seed: 4,
    scenariosDir: 'none',
    maxWaitMs: 2000,
    fetch: (req) => (paths.add(new URL(req.url).pathname.replace(/\/\d+$/, '/{id}')), handler(req)),
    ...filter,
  });
  return { report, paths };
}

describe('a filtered run on a document of 1,000 operations', () => {
  it('--operation: the generated rules and the coverage of that operation only', async () => {
    const { report, paths } = await run({ operations: ['read7'] });
    const generated = report.rules.map((r) => r.id).filter((id) => /^(crud|body)\.[^.]+\./.test(id));
    expect(generated.length).toBeGreaterThan(0);
    expect(generated.filter((id) => !id.startsWith('crud.r7.'))).toEqual([]);
    expect(new Set(report.coverage.map((c) => c.operationId))).toEqual(new Set(['read7']));
    expect(report.rules.filter((r) => r.status === 'fail')).toEqual([]);
    // Beyond the reachability probe (r0's list) and the version rule's /v2 twins, nothing of the other 199
    // resources is sent.
    const others = [...paths].filter((p) => !/^\/v[12]\/r7(\/|$)/.test(p) && !/^\/v[12]\/r0$/.test(p));
    expect(others).toEqual([]);
  });

  it('--tag and --path: operations that match both', async () => {
    const { report } = await run({ tags: ['group3'], paths: ['/r13*/**'] });
    const ops = new Set(report.coverage.map((c) => c.operationId));
    expect(ops).toEqual(new Set(['read13', 'replace13', 'delete13', 'read133', 'replace133', 'delete133']));
    const resources = new Set(report.rules.map((r) => /^crud\.(r\d+)\./.exec(r.id)?.[1]).filter(Boolean));
    expect(resources).toEqual(new Set(['r13', 'r133']));
  });

  it('a filter that matches nothing stops the run with a clear error', async () => {
    await expect(run({ operations: ['nope'] })).rejects.toThrow(/--operation nope: no such operationId/);
  });
});

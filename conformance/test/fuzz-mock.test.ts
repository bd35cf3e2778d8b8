/** Issue 24: the runner with --fuzz passes against the mock on the pet store and on every wild document. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFetchHandler } from '../../mock/adapters/fetch';
import { loadSpecOrThrow } from '../../spec/load';
import { runConformance } from '../run';

const ROOT = path.join(__dirname, '..', '..');
const WILD = path.join(ROOT, 'fixtures', 'specs', 'wild');
const DOCUMENTS = [
  path.join(ROOT, 'spec', 'openapi.yaml'),
  path.join(ROOT, 'fixtures', 'specs', 'fuzz-target-31.yaml'),
  ...fs
    .readdirSync(WILD)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .map((f) => path.join(WILD, f)),
];
const KEY = 'fuzz-mock-key-0123456789';
const failures = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-mock-'));
afterAll(() => fs.rmSync(failures, { recursive: true, force: true }));

it.each(DOCUMENTS.map((f) => [path.relative(ROOT, f), f]))('%s', async (_name, file) => {
  const spec = await loadSpecOrThrow(file);
  const keys = [{ key: KEY, plan: 'enterprise' as const, perMinute: 1e6, perDay: 1e8 }];
  const handler = await createFetchHandler({ document: spec, keys });
  const report = await runConformance({
    target: `http://mock.test${spec.basePath}`,
    key: KEY,
    specFile: file,
    seed: 5,
    scenariosDir: 'none',
    fuzz: true,
    maxExamples: 12,
    failuresDir: failures,
    fetch: handler,
  });
  const fuzzRules = report.rules.filter((r) => r.id.startsWith('fuzz.'));
  expect(fuzzRules.some((r) => r.status === 'pass')).toBe(true);
  expect(report.rules.filter((r) => r.status === 'fail').map((r) => [r.id, r.evidence[0]?.problem])).toEqual(
    [],
  );
});

/**
 * Issue 24, "done when": the runner with --fuzz against our mock passes on the pet store and on every document in
 * fixtures/specs/wild/ (a few random cases each, under a plan whose limits the run does not reach).
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFetchHandler } from '../../mock/adapters/fetch';
import { loadSpecOrThrow } from '../../spec/load';
import { runConformance } from '../run';

const ROOT = path.join(__dirname, '..', '..');
const KEY = 'fuzz-mock-key-0123456789';
const WILD = path.join(ROOT, 'fixtures', 'specs', 'wild');
const DOCUMENTS = [
  path.join(ROOT, 'spec', 'openapi.yaml'),
  ...readdirSync(WILD)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => path.join(WILD, f)),
];
const failuresDir = mkdtempSync(path.join(os.tmpdir(), 'fuzz-mock-'));

it.each(DOCUMENTS.map((file) => [path.relative(ROOT, file), file]))(
  'passes --fuzz on %s',
  async (_name, file) => {
    const spec = await loadSpecOrThrow(file);
    const handler = await createFetchHandler({
      document: spec,
      keys: {
        plans: { fuzz: { perMinute: 100_000, perDay: 1_000_000 } },
        keys: [{ key: KEY, plan: 'fuzz' }],
      },
    });
    const report = await runConformance({
      target: `http://mock.test${spec.basePath}`,
      key: KEY,
      specFile: file,
      seed: 11,
      maxWaitMs: 2000,
      include: ['fuzz'],
      scenariosDir: 'none',
      fuzz: true,
      maxExamples: 10,
      failuresDir,
      fetch: handler,
    });
    const notPassing = report.rules
      .filter((r) => r.status !== 'pass')
      .map((r) => `${r.status} ${r.id}: ${r.evidence[0]?.problem ?? ''}`);
    expect(notPassing).toEqual([]);
    expect(report.rules.filter((r) => r.id.startsWith('fuzz.')).length).toBeGreaterThan(0);
  },
);

/** --fuzz with --read-only, --max-response-time and --fuzz-time, against the faithful club server. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runConformance } from '../index';
import type { ConformanceOptions } from '../types';
import { clubServer, FUZZ_KEY } from './fuzz-servers';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'fuzz-target-31.yaml');
const failuresDir = mkdtempSync(path.join(os.tmpdir(), 'fuzz-options-'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const run = (more: Partial<ConformanceOptions>) =>
  runConformance({
    target: 'http://club.test/v1',
    key: FUZZ_KEY,
    specFile: SPEC,
    seed: 5,
    maxWaitMs: 1000,
    scenariosDir: 'none',
    include: ['fuzz'],
    fuzz: true,
    maxExamples: 10,
    failuresDir,
    fetch: clubServer(),
    ...more,
  });

it('--read-only fuzzes the GETs only and sends no write', async () => {
  const methods = new Set<string>();
  const server = clubServer();
  const report = await run({ readOnly: true, fetch: (req) => (methods.add(req.method), server(req)) });
  expect([...methods]).toEqual(['GET']);
  expect(report.rules.map((r) => r.id).sort()).toEqual([
    'fuzz.getMember.boundaries',
    'fuzz.listMembers.boundaries',
    'fuzz.listMembers.random',
  ]);
  expect(report.rules.find((r) => r.id === 'fuzz.listMembers.boundaries')?.status).toBe('pass');
});

it('--max-response-time fails the operation that answers slower, naming the time', async () => {
  const server = clubServer();
  // Only the documented example "full" (Grace) is slow: one exchange over the limit.
  const slowCreates = async (req: Request) => {
    if (req.method === 'POST' && (await req.clone().text()).includes('grace@')) await sleep(80);
    return server(req);
  };
  const report = await run({ maxResponseTimeMs: 40, fetch: slowCreates, maxExamples: 2 });
  const status = (id: string) => report.rules.find((r) => r.id === id)?.status;
  expect(status('fuzz.createMember.response-time')).toBe('fail');
  expect(report.rules.find((r) => r.id === 'fuzz.createMember.response-time')?.evidence[0]?.problem).toMatch(
    /answered in \d+ ms, over 40 ms/,
  );
  expect(status('fuzz.listMembers.response-time')).toBe('pass');
});

it('--fuzz-time stops sending when the budget is spent and says so', async () => {
  const server = clubServer();
  const slow = async (req: Request) => (await sleep(25), server(req));
  const started = Date.now();
  const report = await run({ fuzzTimeS: 1, fetch: slow, maxExamples: 200 });
  expect(Date.now() - started).toBeLessThan(6000);
  const skipped = report.rules.filter((r) => r.status === 'skip').map((r) => r.evidence[0]?.problem ?? '');
  expect(skipped.join('\n')).toMatch(/cases not sent: --fuzz-time 1s ran out/);
});

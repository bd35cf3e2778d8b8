/**
 * Issue 24: `--fuzz` catches the faults scripted rules miss, on a document of its own (fuzz-target-31.yaml):
 * a faithful server passes; each one-fault server fails the fuzz rule of the phase that finds it, with a shrunk
 * body, a curl command (no key in it) and a saved failure; the same seed finds and shrinks the same way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runConformance } from '../run';
import type { ConformanceOptions } from '../types';
import { startFuzzServer, type FuzzFault } from '../../test/support/fuzz-server';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'fuzz-target-31.yaml');
const KEY = 'fuzz-test-key-0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-failures-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function fuzz(fault: FuzzFault | undefined, extra: Partial<ConformanceOptions> = {}) {
  const server = await startFuzzServer(fault);
  try {
    return await runConformance({
      target: server.url,
      key: KEY,
      specFile: SPEC,
      scenariosDir: 'none',
      include: ['fuzz'],
      fuzz: true,
      maxExamples: 10,
      seed: 11,
      failuresDir: path.join(dir, fault ?? 'faithful'),
      ...extra,
    });
  } finally {
    await server.close();
  }
}

const failing = (report: Awaited<ReturnType<typeof fuzz>>) =>
  report.rules.filter((r) => r.status === 'fail').map((r) => r.id);

it('passes a faithful server: every phase of the create and the replace, and no trace of a refused create', async () => {
  const report = await fuzz(undefined);
  expect(failing(report)).toEqual([]);
  const passed = report.rules.filter((r) => r.status === 'pass').map((r) => r.id);
  expect(passed).toEqual(
    expect.arrayContaining([
      'fuzz.createMember.examples',
      'fuzz.createMember.boundaries',
      'fuzz.createMember.random',
      'fuzz.createMember.no-trace',
      'fuzz.replaceMember.boundaries',
    ]),
  );
});

it.each<[FuzzFault, string]>([
  ['exclusive-as-inclusive', 'fuzz.createMember.boundaries'],
  ['inclusive-as-exclusive', 'fuzz.createMember.boundaries'],
  ['max-length-unchecked', 'fuzz.createMember.boundaries'],
  ['min-length-unchecked', 'fuzz.createMember.boundaries'],
  ['maximum-unchecked', 'fuzz.createMember.boundaries'],
  ['max-items-unchecked', 'fuzz.createMember.boundaries'],
  ['enum-unchecked', 'fuzz.createMember.boundaries'],
  ['email-unchecked', 'fuzz.createMember.boundaries'],
  ['type-converted', 'fuzz.createMember.boundaries'],
  ['additional-allowed', 'fuzz.createMember.boundaries'],
  ['refused-stored', 'fuzz.createMember.no-trace'],
  ['put-unvalidated', 'fuzz.replaceMember.boundaries'],
])('catches %s (%s)', async (fault, rule) => {
  const report = await fuzz(fault);
  expect(failing(report)).toContain(rule);
  const problem = report.rules.find((r) => r.id === rule)?.evidence[0]?.problem ?? '';
  expect(problem).not.toContain(KEY);
  if (rule !== 'fuzz.createMember.no-trace') {
    expect(problem).toMatch(/shrunk to \{/);
    expect(problem).toContain('Authorization: Bearer $CONFORMANCE_API_KEY');
    expect(fs.readdirSync(path.join(dir, fault)).length).toBeGreaterThan(0);
  }
});

it('finds and shrinks a failure the same way with the same seed', async () => {
  const first = await fuzz('max-length-unchecked', { failuresDir: path.join(dir, 'seed-a') });
  const again = await fuzz('max-length-unchecked', { failuresDir: path.join(dir, 'seed-b') });
  const shrunk = (r: typeof first) =>
    /shrunk to (\{.*?\});/.exec(
      r.rules.find((x) => x.id === 'fuzz.createMember.boundaries')?.evidence[0]?.problem ?? '',
    )?.[1];
  expect(shrunk(first)).toBeDefined();
  expect(shrunk(again)).toBe(shrunk(first));
  expect(fs.readdirSync(path.join(dir, 'seed-a'))).toEqual(fs.readdirSync(path.join(dir, 'seed-b')));
});

it('--replay sends the saved failures again: still failing on the faulty server, fixed on a faithful one', async () => {
  const saved = path.join(dir, 'replay');
  await fuzz('enum-unchecked', { failuresDir: saved });
  expect(fs.readdirSync(saved).length).toBeGreaterThan(0);
  const still = await fuzz('enum-unchecked', { failuresDir: saved, replay: true, fuzz: false });
  const replayed = still.rules.filter((r) => r.id.startsWith('replay.'));
  expect(replayed.length).toBe(fs.readdirSync(saved).length);
  expect(still.rules.map((r) => r.id)).toEqual(replayed.map((r) => r.id)); // nothing else is run
  expect(replayed.every((r) => r.status === 'fail')).toBe(true);
  expect(replayed[0]?.evidence[0]?.problem).toMatch(/^still failing: expected 400/);
  const fixed = await fuzz(undefined, { failuresDir: saved, replay: true, fuzz: false });
  expect(fixed.rules.filter((r) => r.id.startsWith('replay.')).map((r) => r.status)).toEqual(
    replayed.map(() => 'pass'),
  );
});

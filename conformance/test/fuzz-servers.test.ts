/**
 * Issue 24, "done when": --fuzz passes a faithful hand-written server of fixtures/specs/fuzz-target-31.yaml and
 * catches each one-fault variant; a failure is found again with the same seed, shrunk to the same case, saved,
 * and reported fixed by --replay once the fault is gone.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runConformance } from '../index';
import type { ConformanceOptions } from '../types';
import { clubServer, FAULTS, FUZZ_KEY, type Fault } from './fuzz-servers';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'fuzz-target-31.yaml');
const dir = mkdtempSync(path.join(os.tmpdir(), 'fuzz-failures-'));

const run = (fault: Fault | undefined, more: Partial<ConformanceOptions> = {}) =>
  runConformance({
    target: 'http://club.test/v1',
    key: FUZZ_KEY,
    specFile: SPEC,
    seed: 7,
    maxWaitMs: 1000,
    scenariosDir: 'none',
    include: ['fuzz'],
    fuzz: true,
    maxExamples: 20,
    failuresDir: path.join(dir, fault ?? 'faithful'),
    fetch: clubServer(fault),
    ...more,
  });

const failing = (report: Awaited<ReturnType<typeof run>>) =>
  report.rules
    .filter((r) => r.status === 'fail')
    .flatMap((r) => r.evidence.map((e) => `${r.id}: ${e.problem}`))
    .join('\n');

const CAUGHT_BY: Record<Fault, RegExp> = {
  'exclusive-as-inclusive': /createMember\.boundaries: body age exclusiveMinimum \(0\): status 201/,
  'inclusive-as-exclusive': /createMember\.boundaries: body age maximum \(130\): status 400, expected 201/,
  'min-length': /body name minLength-1 .*status 201/,
  'max-length': /body name maxLength\+1 .*status 201/,
  minimum: /body score minimum-step \(-0\.5\): status 201/,
  'max-items': /body tags maxItems\+1 .*status 201/,
  enum: /body plan outside-enum .*status 201/,
  email: /body email format:email-invalid .*status 201/,
  'convert-type': /body age type:numeric-string \("12"\): status 201/,
  'additional-properties': /body the body with an extra property: status 201/,
  'malformed-json-500': /body not JSON: status 500, expected 400/,
  'non-integer-id-500': /getMember\.boundaries: path memberId "abc": status 500/,
  'array-as-first': /body an array of a valid body: status 201/,
  'store-refused': /createMember\.no-trace: .*refused, yet the list shows it/,
  'no-key-create-stored':
    /createMember\.chains: step \d+ \(no-key-write\): a create .* was refused, yet the list shows it/,
  'delete-ignored':
    /createMember\.chains: step \d+ \(delete\): getMember gone after delete \(\d+\): status 200, expected 404/,
  'id-reused':
    /createMember\.chains: step \d+ \(create\): the new item got the id \d+, which an earlier item/,
  'replace-not-stored': /createMember\.chains: step \d+ \(replace\): the replace is read back/,
};

it('passes a faithful server', async () => {
  const report = await run(undefined);
  expect(failing(report)).toBe('');
  expect(report.rules.filter((r) => r.status === 'pass').map((r) => r.id)).toEqual(
    expect.arrayContaining([
      'fuzz.createMember.examples',
      'fuzz.createMember.boundaries',
      'fuzz.createMember.random',
      'fuzz.createMember.no-trace',
      'fuzz.createMember.chains',
      'fuzz.replaceMember.boundaries',
      'fuzz.listMembers.boundaries',
      'fuzz.getMember.boundaries',
    ]),
  );
});

it.each(FAULTS)('catches a server with the fault %s', async (fault) => {
  expect(failing(await run(fault))).toMatch(CAUGHT_BY[fault]);
});

it('finds and shrinks a failure the same way with the same seed, prints its curl, and replays it', async () => {
  const failuresDir = path.join(dir, 'replay');
  const first = failing(await run('max-length', { failuresDir }));
  const files = readdirSync(failuresDir).sort();
  expect(failing(await run('max-length', { failuresDir }))).toBe(first);
  expect(readdirSync(failuresDir).sort()).toEqual(files);
  expect(first).toMatch(
    /replay: curl -sS -X POST 'http:\/\/club\.test\/v1\/members' .*\$CONFORMANCE_API_KEY/,
  );
  expect(first).not.toContain(FUZZ_KEY);
  const saved = JSON.parse(readFileSync(path.join(failuresDir, files[0] ?? ''), 'utf8')) as {
    request: { body: { name: string } };
  };
  expect(saved.request.body.name).toHaveLength(21);

  const still = await run('max-length', { failuresDir, replay: true, include: undefined });
  expect(still.rules.length).toBe(files.length);
  expect(
    still.rules.every((r) => r.status === 'fail' && /still failing/.test(r.evidence[0]?.problem ?? '')),
  ).toBe(true);
  const fixed = await run(undefined, { failuresDir, replay: true, include: undefined });
  expect(fixed.rules.map((r) => r.status)).toEqual(files.map(() => 'pass'));
  expect(readdirSync(failuresDir)).toEqual([]);
});

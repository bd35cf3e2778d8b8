/**
 * Issue 24, "done when": --fuzz passes a faithful hand-written server of fixtures/specs/fuzz-club-31.yaml and
 * catches each one-fault variant; a failure is found again with the same seed, shrunk to the same case, saved,
 * and reported fixed by --replay once the fault is gone.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runConformance } from '../index';
import type { ConformanceOptions } from '../types';
import { clubServer, FAULTS, FUZZ_KEY, type Fault } from '../../test/support/fuzz-servers';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'fuzz-club-31.yaml');
const dir = mkdtempSync(path.join(os.tmpdir(), 'fuzz-failures-'));

const run = (fault: Fault | undefined, more: Partial<ConformanceOptions> = {}) =>
  runConformance({
    target: 'http://club.test/v1',
    key: FUZZ_KEY,
    specFile: SPEC,
    seed: 7,
    maxWaitMs: 1000,
    scenariosDir: 'none',
    // The body rules too: a body that is not JSON is theirs (body.<op>.malformed-json).
    include: ['fuzz', 'body'],
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
  'exclusive-as-inclusive':
    /fuzz\.createMember\.boundaries: age: exclusiveMinimum 0: an invalid body: expected 400, got 201/,
  'inclusive-as-exclusive':
    /fuzz\.createMember\.boundaries: age: maximum 130: a valid body: expected 201, got 400/,
  'min-length': /fuzz\.createMember\.boundaries: name: minLength 2 - 1: an invalid body/,
  'max-length': /fuzz\.createMember\.boundaries: name: maxLength 20 \+ 1: an invalid body/,
  minimum: /fuzz\.createMember\.boundaries: score: minimum 0 - 0\.5: an invalid body/,
  'max-items': /fuzz\.createMember\.boundaries: tags: maxItems 3 \+ 1: an invalid body/,
  enum: /fuzz\.createMember\.boundaries: plan: a value outside the enum: an invalid body/,
  email: /fuzz\.createMember\.boundaries: email: not a email: an invalid body/,
  'convert-type': /fuzz\.replaceMember\.boundaries: age: a integer written as a string: an invalid body/,
  'additional-properties': /fuzz\.createMember\.boundaries: one property the schema does not name/,
  'malformed-json-500': /body\.createMember\.malformed-json: .*status 500, expected 400/,
  'non-integer-id-500':
    /fuzz\.getMember\.parameters: path memberId "abc": an invalid request: expected 400 or 404, got 500/,
  'array-as-first': /fuzz\.createMember\.boundaries: an array holding a valid body: an invalid body/,
  'store-refused': /fuzz\.createMember\.no-trace: \d+ refused create\(s\) were stored anyway/,
  'no-key-create-stored':
    /fuzz\.createMember\.chains: step \d+ \(no-key-write\): a create .* was refused, yet the list shows it/,
  'delete-ignored':
    /fuzz\.createMember\.chains: step \d+ \(delete\): getMember gone after delete \(\d+\): status 200, expected 404/,
  // Found as a new item with an earlier id, or as a deleted id answering another item (the run's other checks
  // create too).
  'id-reused':
    /fuzz\.createMember\.chains: step \d+ \(\w+\): (the new item got the id \d+, which an earlier item|the id \d+ of a deleted item is in use again)/,
  'limit-unchecked':
    /fuzz\.listMembers\.parameters: query limit: maximum 100 \+ 1: an invalid request: expected 400, got 200/,
  'replace-not-stored': /fuzz\.createMember\.chains: step \d+ \(replace\): the replace is read back/,
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
      'fuzz.listMembers.parameters',
      'fuzz.getMember.parameters',
      'fuzz.deleteMember.parameters',
    ]),
  );
});

it.each(FAULTS)('catches a server with the fault %s', async (fault) => {
  expect(failing(await run(fault))).toMatch(CAUGHT_BY[fault]);
});

it('finds and shrinks a failure the same way with the same seed, with its curl, and replays it', async () => {
  const failuresDir = path.join(dir, 'replay');
  // The no-trace marker names the run (its time): the rest is the same bytes.
  const shrunk = async () =>
    failing(await run('max-length', { failuresDir }))
      .split('\n')
      .filter((line) => !line.includes('no-trace'))
      .join('\n');
  const first = await shrunk();
  const files = readdirSync(failuresDir).sort();
  expect(files.length).toBeGreaterThan(0);
  expect(await shrunk()).toBe(first);
  expect(readdirSync(failuresDir).sort()).toEqual(files);
  expect(first).toMatch(
    /curl -i -X POST "http:\/\/club\.test\/v1\/members" -H "Authorization: Bearer \$CONFORMANCE_API_KEY"/,
  );
  expect(first).not.toContain(FUZZ_KEY);
  const still = await run('max-length', { failuresDir, replay: true, include: undefined });
  expect(still.rules.map((r) => r.status)).toEqual(files.map(() => 'fail'));
  const fixed = await run(undefined, { failuresDir, replay: true, include: undefined });
  expect(fixed.rules.map((r) => r.status)).toEqual(files.map(() => 'pass'));
});

it('--read-only still fuzzes the parameters of the GETs, and sends nothing else', async () => {
  const methods = new Set<string>();
  const server = clubServer('limit-unchecked');
  const report = await run(undefined, {
    readOnly: true,
    fetch: (req) => (methods.add(req.method), server(req)),
  });
  expect([...methods]).toEqual(['GET']);
  expect(failing(report)).toMatch(/fuzz\.listMembers\.parameters: query limit: maximum 100 \+ 1/);
  const skipped = report.rules.filter((r) => r.status === 'skip').map((r) => r.id);
  expect(skipped).toEqual(
    expect.arrayContaining(['fuzz.createMember.boundaries', 'fuzz.createMember.chains']),
  );
});

it('saves a parameter failure and replays it: still failing with the fault, fixed without', async () => {
  const failuresDir = path.join(dir, 'replay-parameters');
  const found = failing(
    await run('limit-unchecked', { failuresDir, operations: ['listMembers'], include: ['fuzz'] }),
  );
  expect(found).toMatch(
    /query limit: maximum 100 \+ 1: .*; saved in .*\(--replay\)\ncurl -i -X GET ".*\/members\?limit=101"/,
  );
  const files = readdirSync(failuresDir);
  expect(files).toHaveLength(1);
  const still = await run('limit-unchecked', { failuresDir, replay: true, include: undefined });
  expect(still.rules.map((r) => `${r.status} ${r.evidence[0]?.problem ?? ''}`)).toEqual([
    expect.stringMatching(/^fail still failing: expected 400, got 200/),
  ]);
  const fixed = await run(undefined, { failuresDir, replay: true, include: undefined });
  expect(fixed.rules.map((r) => r.status)).toEqual(['pass']);
});

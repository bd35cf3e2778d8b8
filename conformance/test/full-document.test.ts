/**
 * The second document (fixtures/specs/petstore-full.yaml): its rules are generated from it, a faithful server of it
 * passes in-process (runConformance({ fetch })), and each one-fault server fails the rule its fault breaks.
 */
import path from 'node:path';
import { exitCodeOf } from '../cli';
import { runConformance } from '../index';
import type { ConformanceOptions, Report } from '../types';
import { createCrudHandler, type CrudFault } from '../../test/support/crud-server';
import { idsWith } from '../../test/support/helpers';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'petstore-full.yaml');
const TARGET = 'http://crud.test/v1';

async function runWith(fault?: CrudFault, extra: Partial<ConformanceOptions> = {}): Promise<Report> {
  return runConformance({
    target: TARGET,
    key: 'good-key',
    specFile: SPEC,
    seed: 3,
    maxWaitMs: 1000,
    fetch: await createCrudHandler(SPEC, { fault }),
    ...extra,
  });
}

describe('the second document against a faithful server, in-process', () => {
  let report: Report;
  beforeAll(async () => {
    report = await runWith();
  });

  it('passes (exit 0): no rule fails, contract or assumption', () => {
    expect(idsWith(report, 'fail')).toEqual([]);
    expect(exitCodeOf(report, true)).toBe(0);
  });

  it('generates the lifecycle of each resource, only the steps it has', () => {
    const ids = report.rules.map((r) => r.id);
    for (const step of [
      'create',
      'read',
      'listed',
      'replace',
      'merge-patch',
      'delete',
      'delete-then-404',
      'delete-again-404',
      'unknown-id-404',
      'read-only-not-stored',
      'read-only-rejected',
    ])
      expect(ids).toContain(`crud.pets.${step}`);
    expect(ids.filter((id) => id.startsWith('crud.orders.')).sort()).toEqual(
      [
        'create',
        'read',
        'listed',
        'delete',
        'delete-then-404',
        'delete-again-404',
        'unknown-id-404',
        'read-only-not-stored',
        'read-only-rejected',
      ]
        .map((s) => `crud.orders.${s}`)
        .sort(),
    );
  });

  it('generates body rules for each bound, named by operation and case', () => {
    const ids = report.rules.map((r) => r.id);
    for (const id of [
      'body.createPet.missing-name',
      'body.createPet.min-length-name',
      'body.createPet.max-length-tag',
      'body.createPet.enum-status',
      'body.createPet.minimum-categoryId',
      'body.placeOrder.maximum-quantity',
      'body.updatePet.type-tag',
      'body.replaceCategory.malformed-json',
    ])
      expect(ids).toContain(id);
    expect(report.rules.find((r) => r.id === 'body.createPet.unknown-property')?.kind).toBe('assumption');
  });

  it('passes every generated rule (none skipped) and deletes everything it created', () => {
    const generated = report.rules.filter((r) => /^(crud|body)\./.test(r.id));
    expect(generated.filter((r) => r.status !== 'pass').map((r) => [r.id, r.evidence[0]?.problem])).toEqual(
      [],
    );
    expect(report.cleanup?.leftovers).toEqual([]);
    expect(report.cleanup?.deleted).toBeGreaterThan(0);
  });
});

describe.each<[CrudFault, string]>([
  ['delete-nothing', 'crud.pets.delete-then-404'],
  ['patch-replaces', 'crud.pets.merge-patch'],
  ['unknown-id-200', 'crud.pets.unknown-id-404'],
  ['create-accepts-missing-required', 'body.createPet.missing-name'],
  ['replace-not-stored', 'crud.pets.replace'],
  ['read-other-item', 'crud.pets.read'],
  ['read-only-stored', 'crud.pets.read-only-not-stored'],
])('a server of the second document with the fault %s', (fault, rule) => {
  it(`exits 1 and names ${rule}, with the exchanges that led to it`, async () => {
    const report = await runWith(fault);
    expect(exitCodeOf(report, false)).toBe(1);
    expect(idsWith(report, 'fail')).toContain(rule);
    const failed = report.rules.find((r) => r.id === rule);
    expect(failed?.evidence[0]?.problem).not.toBe('');
    if (rule.startsWith('crud.') && !rule.endsWith('unknown-id-404'))
      expect(failed?.evidence[0]?.steps?.length).toBeGreaterThan(0);
  });
});

describe('a readOnly id sent by the client (OpenAPI: SHOULD NOT be sent; JSON Schema §9.4: ignored or rejected)', () => {
  it('is a contract rule: a server that stores the client-sent id fails it on create, replace and patch (exit 1)', async () => {
    const report = await runWith('read-only-stored');
    const rule = report.rules.find((r) => r.id === 'crud.pets.read-only-not-stored');
    expect(rule).toMatchObject({ kind: 'contract', status: 'fail' });
    const problems = rule?.evidence.map((e) => e.problem).join('\n') ?? '';
    for (const op of ['createPet', 'replacePet', 'updatePet'])
      expect(problems).toMatch(new RegExp(`${op} with "id" set to 987654321: accepted`));
    expect(exitCodeOf(report, false)).toBe(1);
  });

  it('a server that ignores it passes (exit 0); rejecting it with 400 is only an assumption (--strict: exit 1)', async () => {
    const report = await runWith('read-only-ignored');
    expect(report.rules.find((r) => r.id === 'crud.pets.read-only-not-stored')?.status).toBe('pass');
    expect(idsWith(report, 'fail').sort()).toEqual([
      'crud.categories.read-only-rejected',
      'crud.orders.read-only-rejected',
      'crud.pets.read-only-rejected',
    ]);
    expect(report.rules.find((r) => r.id === 'crud.pets.read-only-rejected')?.kind).toBe('assumption');
    expect(exitCodeOf(report, false)).toBe(0);
    expect(exitCodeOf(report, true)).toBe(1);
  });
});

/**
 * Issue 31: the mock and the runner agree on what `readOnly` means in a request. OpenAPI says a readOnly property
 * SHOULD NOT be sent; JSON Schema 2020-12 §9.4 (which OpenAPI 3.1 defers to) says the owning authority ignores or
 * rejects it. So `crud.<r>.read-only-not-stored` (never stored) is contract, and `crud.<r>.read-only-rejected`
 * (refused with 400) is the mock's documented choice, an assumption: the default mock passes both on create,
 * replace, merge patch and JSON Patch; the mock set to `readOnlyProperties: ignore` passes the contract alone.
 */
import path from 'node:path';
import { createFetchHandler } from '../../mock/adapters/fetch';
import { ENGINE_DEFAULTS, type ReadOnlyHandling } from '../../mock/core/settings';
import { loadSpecOrThrow } from '../../spec/load';
import { exitCodeOf } from '../cli';
import { runConformance } from '../index';
import type { Report } from '../types';

const SPECS = path.join(__dirname, '..', '..', 'fixtures', 'specs');
const FULL = path.join(SPECS, 'petstore-full.yaml');
const JSON_PATCH = path.join(SPECS, 'wild', 'scheduler-json-patch-31.yaml');
const KEY = 'read-only-agreement-key-01';

async function againstMock(
  file: string,
  readOnlyProperties: ReadOnlyHandling,
): Promise<{ report: Report; sent: string[] }> {
  const spec = await loadSpecOrThrow(file);
  const mock = await createFetchHandler({
    document: spec,
    keys: [{ key: KEY, plan: 'business' }],
    config: { policy: { ...ENGINE_DEFAULTS.policy, readOnlyProperties } },
  });
  const sent: string[] = [];
  const report = await runConformance({
    target: `http://mock.test${spec.basePath}`,
    key: KEY,
    specFile: file,
    seed: 7,
    maxWaitMs: 2000,
    fetch: async (request) => {
      if (request.method !== 'GET') sent.push(`${request.method} ${await request.clone().text()}`);
      return mock(request);
    },
  });
  return { report, sent };
}

const readOnlyRules = (report: Report) =>
  report.rules
    .filter((r) => /\.read-only-/.test(r.id))
    .map((r) => [r.id, r.kind, r.status, r.evidence.find((e) => e.problem)?.problem ?? '']);

describe.each<[string, string, RegExp[]]>([
  [
    'the second document (create, replace, merge patch)',
    FULL,
    [/^POST .*"id":987654321/, /^PUT .*"id":987654321/, /^PATCH .*"id":987654321/],
  ],
  [
    'a JSON Patch document (create, JSON Patch replace of the id)',
    JSON_PATCH,
    [/^POST .*"id":"[^"]*-client-id"/, /^PATCH \[\{"op":"replace","path":"\/id"/],
  ],
])('%s', (_name, file, writes) => {
  it('the default mock refuses a readOnly property in every write: both rules pass, nothing else fails', async () => {
    const { report, sent } = await againstMock(file, 'reject');
    const rules = readOnlyRules(report);
    expect(rules.length).toBeGreaterThanOrEqual(2);
    expect(rules.filter(([, , status]) => status !== 'pass')).toEqual([]);
    expect(report.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([]);
    expect(exitCodeOf(report, true)).toBe(0);
    // The writes were sent: the id in a create, a replace and a merge patch body, or as a JSON Patch `replace`.
    for (const write of writes) expect(sent.filter((s) => write.test(s))).not.toEqual([]);
  });

  it('the mock set to ignore them still stores none: the contract passes, only the 400 assumption fails', async () => {
    const { report } = await againstMock(file, 'ignore');
    const rules = readOnlyRules(report);
    expect(
      rules
        .filter(([id]) => String(id).endsWith('not-stored'))
        .every(([, kind, s]) => kind === 'contract' && s === 'pass'),
    ).toBe(true);
    const failed = rules.filter(([, , status]) => status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    for (const [id, kind, , problem] of failed) {
      expect(id).toMatch(/\.read-only-rejected$/);
      expect(kind).toBe('assumption');
      expect(problem).toMatch(/\(accepted\)/);
    }
    expect(exitCodeOf(report, false)).toBe(0);
    expect(exitCodeOf(report, true)).toBe(1);
  });
});

import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import type { Exchange, Report } from '../types';
import { alignExchanges } from './align';
import { compareRuns } from './compare';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'fuzz-club-31.yaml');
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpecOrThrow(SPEC);
});

const JSON_TYPE = { 'content-type': 'application/json' };
const ex = (url: string, status: number, body: unknown, headers: Record<string, string> = {}): Exchange => ({
  request: { method: 'GET', url: `http://a.test/v1${url}`, headers: {} },
  response: { status, headers: { ...JSON_TYPE, ...headers }, body: JSON.stringify(body), json: body },
  operationId: url.startsWith('/members/') ? 'getMember' : 'listMembers',
  receivedAt: 0,
});
const report = (target: string): Report => ({
  target,
  startedAt: '',
  durationMs: 0,
  summary: { pass: 0, fail: 0, skip: 0 },
  rules: [],
  coverage: [],
});
const run = (target: string, exchanges: Exchange[]) => ({ report: report(target), exchanges });
const verdicts = (a: Exchange[], b: Exchange[]) =>
  compareRuns(spec, run('A', a), run('B', b)).differences.map((d) => `${d.kind} ${d.verdict}`);

describe('compareRuns: which side the document is on', () => {
  it.each([
    ['a 500 against a 200', [ex('/members', 200, [])], [ex('/members', 500, {})], ['status a-right']],
    [
      'a 503 against a 500: both wrong',
      [ex('/members', 503, {})],
      [ex('/members', 500, {})],
      ['status both-wrong'],
    ],
    [
      'a body only one side fits',
      [ex('/members', 200, [])],
      [ex('/members', 200, { not: 'a list' })],
      ['shape a-right'],
    ],
    [
      'an undocumented status on A',
      [ex('/members/1', 418, {})],
      [ex('/members/1', 404, { error: 'x', message: 'y' })],
      ['status b-right'],
    ],
    [
      'rate-limit headers on one side only, the document silent: both allowed',
      [ex('/members', 200, [], { 'x-ratelimit-limit': '10' })],
      [ex('/members', 200, [])],
      ['rate-limit-headers both-allowed'],
    ],
    ['the same answer', [ex('/members', 200, [])], [ex('/members', 200, [])], []],
  ])('%s', (_name, a, b, expected) => {
    expect(verdicts(a, b)).toEqual(expected);
  });

  it('a rule that holds on one side only is a difference on that side', () => {
    const rule = (status: 'pass' | 'fail') => ({
      id: 'crud.members.delete-then-404',
      title: '',
      kind: 'contract' as const,
      source: '',
      status,
      evidence:
        status === 'fail' ? [{ request: null, response: null, problem: 'status 200, expected 404' }] : [],
    });
    const a = { report: { ...report('A'), rules: [rule('pass')] }, exchanges: [] };
    const b = { report: { ...report('B'), rules: [rule('fail')] }, exchanges: [] };
    expect(compareRuns(spec, a, b).differences).toEqual([
      expect.objectContaining({ kind: 'rule', where: 'crud.members.delete-then-404', verdict: 'a-right' }),
    ]);
  });
});

describe('alignExchanges', () => {
  it('pairs what both asked, ids aside, and leaves the rest single', () => {
    const a = [ex('/members', 200, []), ex('/members/1', 200, {}), ex('/members', 200, [])];
    const b = [ex('/members', 200, []), ex('/members', 200, [])];
    const aligned = alignExchanges(a, b);
    expect(aligned.map((p) => `${p.a ? 'a' : '-'}${p.b ? 'b' : '-'}`)).toEqual(['ab', 'a-', 'ab']);
    expect(alignExchanges([ex('/members/7', 200, {})], [ex('/members/12', 200, {})])).toHaveLength(1);
  });
});

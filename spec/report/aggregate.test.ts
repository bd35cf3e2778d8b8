import { aggregate, createTally, evidenceOf, MAX_EVIDENCE } from './aggregate';
import { NOT_EXERCISED } from './skips';
import type { Exchange, Finding, Rule, RuleResult } from './types';

const rule = (id: string): Rule => ({ id, title: id, source: '§5', kind: 'contract', tags: [] });

const exchange = (n: number): Exchange => ({
  request: { method: 'GET', url: `http://t.test/v1/items/${n}`, headers: {} },
  response: { status: 500, headers: {}, body: `body ${n}`, json: { big: 'x'.repeat(1000) } },
  responseText: 'y'.repeat(5000),
  receivedAt: n,
});

/** What aggregate did before it was a tally: every finding held, grouped and sliced at the end. */
function allAtOnce(rules: readonly Rule[], findings: readonly Finding[]): RuleResult[] {
  return rules.map((r) => {
    const mine = findings.filter((f) => f.ruleId === r.id);
    const failed = mine.filter((f) => f.outcome === 'fail');
    const skipped = mine.filter((f) => f.outcome === 'skip');
    const base = { id: r.id, title: r.title, kind: r.kind, source: r.source };
    if (failed.length > 0) return { ...base, status: 'fail', evidence: failed.slice(0, 5).map(evidenceOf) };
    if (skipped.length > 0) return { ...base, status: 'skip', evidence: skipped.slice(0, 1).map(evidenceOf) };
    if (mine.length > 0) return { ...base, status: 'pass', evidence: [] };
    return { ...base, status: 'skip', evidence: [{ request: null, response: null, problem: NOT_EXERCISED }] };
  });
}

/** A seeded mix of outcomes over a few rules. */
function findingsOf(count: number, seed: number): Finding[] {
  let a = seed;
  const next = () => (a = (a * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, (_, n) => {
    const ruleId = `r${Math.floor(next() * 6)}`;
    const roll = next();
    const outcome = roll < 0.2 ? 'fail' : roll < 0.35 ? 'skip' : 'pass';
    return { ruleId, outcome, problem: `p${n}`, exchange: exchange(n) };
  });
}

const rules = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'never'].map(rule);

it('gives the same results as holding every finding to the end', () => {
  for (const seed of [1, 2, 3, 4]) {
    const findings = findingsOf(400, seed);
    expect(aggregate(rules, findings)).toEqual(allAtOnce(rules, findings));
  }
});

it('keeps at most five failures and one skip per rule, however many findings arrive', () => {
  const tally = createTally();
  for (let n = 0; n < 20_000; n++)
    tally.add({
      ruleId: `r${n % 3}`,
      outcome: n % 2 ? 'fail' : 'skip',
      problem: 'bad',
      exchange: exchange(n),
    });
  expect(tally.keptEvidence).toBe(3 * (MAX_EVIDENCE + 1));
  const [r0] = tally.results([rule('r0')]);
  expect(r0?.evidence.map((e) => e.problem)).toHaveLength(MAX_EVIDENCE);
  // Evidence is an excerpt: neither the whole text nor the parsed body of the exchange is held.
  expect(JSON.stringify(r0?.evidence)).not.toContain('yyyy');
  expect(JSON.stringify(r0?.evidence)).not.toContain('xxxx');
});

it('puts a second tally after the first: its failures fill the evidence after the first one’s', () => {
  const checks = createTally();
  const traffic = createTally();
  for (let n = 0; n < 3; n++) checks.add({ ruleId: 'r0', outcome: 'fail', problem: `check ${n}` });
  for (let n = 0; n < 4; n++) traffic.add({ ruleId: 'r0', outcome: 'fail', problem: `traffic ${n}` });
  traffic.add({ ruleId: 'r1', outcome: 'pass' });
  traffic.add({ ruleId: 'r2', outcome: 'skip', problem: 'later' });
  checks.add({ ruleId: 'r2', outcome: 'skip', problem: 'first' });
  const [r0, r1, r2] = checks.results([rule('r0'), rule('r1'), rule('r2')], traffic);
  expect(r0?.evidence.map((e) => e.problem)).toEqual([
    'check 0',
    'check 1',
    'check 2',
    'traffic 0',
    'traffic 1',
  ]);
  expect(r1?.status).toBe('pass');
  expect(r2?.evidence.map((e) => e.problem)).toEqual(['first']);
});

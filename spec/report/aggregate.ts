/**
 * Findings -> one result per selected rule: fail beats skip beats pass; no finding at all is a skip. A tally takes
 * the findings one at a time as a run makes them and keeps only what the report needs of each rule: its counts, up
 * to five failures as evidence and its first skip, never the exchanges behind the rest (12,500 exchanges on a
 * document of 1,000 operations would otherwise be held until the end).
 */
import type { Evidence, Exchange, Finding, Rule, RuleResult } from './types';
import { NOT_EXERCISED } from './skips';

/** The failing exchanges a rule keeps as evidence. */
export const MAX_EVIDENCE = 5;

/** Turn a finding into evidence (request and response excerpt, key already masked by the client). */
export function evidenceOf(finding: Finding): Evidence {
  const evidence: Evidence = {
    request: finding.exchange?.request ?? null,
    response: excerptOf(finding.exchange),
    problem: finding.problem ?? '',
  };
  if (finding.steps)
    evidence.steps = finding.steps.map((e) => ({ request: e.request, response: excerptOf(e) }));
  return evidence;
}

// The parsed body and the whole text stay out of the evidence: the excerpt is what a reader needs.
function excerptOf(exchange: Exchange | undefined): Evidence['response'] {
  const res = exchange?.response;
  return res ? { status: res.status, headers: res.headers, body: res.body } : null;
}

/** What a tally keeps of one rule. */
interface Kept {
  findings: number;
  failures: Evidence[];
  skip?: Evidence;
}

/** Findings in, results out; what it holds is bounded by the number of rules, not of findings. */
export interface Tally {
  add(finding: Finding): void;
  /** The result of each rule, in catalogue order; `after`'s findings count as made after this tally's. */
  results(rules: readonly Rule[], after?: Tally): RuleResult[];
  /** The evidence kept across every rule (at most MAX_EVIDENCE + 1 per rule). */
  readonly keptEvidence: number;
  /** @internal what it keeps of one rule, for `results(…, after)`. */
  kept(ruleId: string): Readonly<Kept> | undefined;
}

export function createTally(): Tally {
  const byRule = new Map<string, Kept>();
  let keptEvidence = 0;
  const tally: Tally = {
    add(finding) {
      let kept = byRule.get(finding.ruleId);
      if (!kept) byRule.set(finding.ruleId, (kept = { findings: 0, failures: [] }));
      kept.findings += 1;
      if (finding.outcome === 'fail' && kept.failures.length < MAX_EVIDENCE) {
        kept.failures.push(evidenceOf(finding));
        keptEvidence += 1;
      } else if (finding.outcome === 'skip' && kept.skip === undefined) {
        kept.skip = evidenceOf(finding);
        keptEvidence += 1;
      }
    },
    get keptEvidence() {
      return keptEvidence;
    },
    kept: (ruleId) => byRule.get(ruleId),
    results(rules, after) {
      return rules.map((rule) => resultOf(rule, byRule.get(rule.id), after?.kept(rule.id)));
    },
  };
  return tally;
}

function resultOf(rule: Rule, first: Kept | undefined, second: Kept | undefined): RuleResult {
  const base = { id: rule.id, title: rule.title, kind: rule.kind, source: rule.source };
  const failures = [...(first?.failures ?? []), ...(second?.failures ?? [])];
  if (failures.length > 0) return { ...base, status: 'fail', evidence: failures.slice(0, MAX_EVIDENCE) };
  const skipped = first?.skip ?? second?.skip;
  if (skipped) return { ...base, status: 'skip', evidence: [skipped] };
  if ((first?.findings ?? 0) + (second?.findings ?? 0) > 0) return { ...base, status: 'pass', evidence: [] };
  return { ...base, status: 'skip', evidence: [{ request: null, response: null, problem: NOT_EXERCISED }] };
}

/** The result of each rule, in catalogue order (every finding at once: a tally fed in order). */
export function aggregate(rules: readonly Rule[], findings: readonly Finding[]): RuleResult[] {
  const tally = createTally();
  for (const f of findings) tally.add(f);
  return tally.results(rules);
}

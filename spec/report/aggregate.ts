/** Findings -> one result per selected rule: fail beats skip beats pass; no finding at all is a skip. */
import type { Evidence, Exchange, Finding, Rule, RuleResult } from './types';
import { NOT_EXERCISED } from './skips';

const MAX_EVIDENCE = 5;

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

// The parsed body stays out of the evidence: the excerpt is what a reader needs.
function excerptOf(exchange: Exchange | undefined): Evidence['response'] {
  const res = exchange?.response;
  return res ? { status: res.status, headers: res.headers, body: res.body } : null;
}

/** The result of each rule, in catalogue order. */
export function aggregate(rules: readonly Rule[], findings: readonly Finding[]): RuleResult[] {
  // Grouped once: a document of 1,000 operations has thousands of rules and tens of thousands of findings.
  const byRule = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byRule.get(f.ruleId);
    if (list) list.push(f);
    else byRule.set(f.ruleId, [f]);
  }
  return rules.map((rule) => {
    const mine = byRule.get(rule.id) ?? [];
    const failed = mine.filter((f) => f.outcome === 'fail');
    const skipped = mine.filter((f) => f.outcome === 'skip');
    const base = { id: rule.id, title: rule.title, kind: rule.kind, source: rule.source };
    if (failed.length > 0)
      return { ...base, status: 'fail', evidence: failed.slice(0, MAX_EVIDENCE).map(evidenceOf) };
    if (skipped.length > 0) return { ...base, status: 'skip', evidence: skipped.slice(0, 1).map(evidenceOf) };
    if (mine.length > 0) return { ...base, status: 'pass', evidence: [] };
    return {
      ...base,
      status: 'skip',
      evidence: [{ request: null, response: null, problem: NOT_EXERCISED }],
    };
  });
}

/**
 * Pure: why a rule was skipped (its cause, from the start of its reason: the producers' prefixes) and the skipped
 * rules grouped by cause then reason, for the reports' last lines. The exit code built on it: conformance/verdict/gate.ts.
 */
import type { RuleResult } from './types';

/** Why a rule was skipped, from the start of its reason (the producers' prefixes). */
export type SkipCause = 'throttled' | 'options' | 'not-exercised' | 'not-applicable';

/** The text every throttled skip starts with (send/client.ts, probes/quota.ts). */
export const THROTTLED = 'rate-limited:';
/** The text of a rule no check gave a finding for (verdict/aggregate.ts). */
export const NOT_EXERCISED = 'not exercised by this run';

export const CAUSE_TITLES: Record<SkipCause, string> = {
  throttled: 'rate-limited or banned by the target (the run could not check them)',
  options: "ruled out by this run's options",
  'not-exercised': 'not exercised by this run',
  'not-applicable': 'nothing to check on this document or target',
};

/** Pure: the cause of a skip, from its reason. */
export function skipCause(reason: string): SkipCause {
  // A scenario's step prefixes its own name: `step "list without a key": rate-limited: …`.
  if (reason.startsWith(THROTTLED) || reason.includes(`: ${THROTTLED}`)) return 'throttled';
  if (['--read-only', 'no quota key', 'opt-in:', 'no --callbacks-listen'].some((p) => reason.startsWith(p)))
    return 'options';
  if (reason.startsWith(NOT_EXERCISED)) return 'not-exercised';
  return 'not-applicable';
}

export interface SkipGroup {
  cause: SkipCause;
  reason: string;
  rules: string[];
}

/** The skipped rules grouped by cause (throttled first), then by reason, each group's rule ids in order. */
export function skipGroups(rules: readonly RuleResult[]): SkipGroup[] {
  const groups = new Map<string, SkipGroup>();
  for (const r of rules) {
    if (r.status !== 'skip') continue;
    const reason = r.evidence[0]?.problem || NOT_EXERCISED;
    const cause = skipCause(reason);
    // Waits differ by a few ms from rule to rule: one group for them all.
    const key = `${cause}\u0000${reason.replace(/\d+ ms\b/g, 'N ms')}`;
    const group = groups.get(key);
    if (group) group.rules.push(r.id);
    else groups.set(key, { cause, reason, rules: [r.id] });
  }
  const order: SkipCause[] = ['throttled', 'not-exercised', 'not-applicable', 'options'];
  return [...groups.values()].sort((a, b) => order.indexOf(a.cause) - order.indexOf(b.cause));
}

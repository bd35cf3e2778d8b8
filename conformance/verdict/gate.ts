/**
 * Pure: the exit code of a run and why (docs/check-a-server.md#exit-codes, the one table), and the skipped rules
 * grouped by cause for the report's last lines.
 *
 * - 0: every required rule held. 1: a rule failed (a finding about the server), or coverage under --min-coverage.
 * - 2: the run could not judge: a rule named by --require was skipped; a rule was skipped because the target
 *   rate-limited or banned the run (it meant to check it and could not); or more than half of the rules the
 *   run could have checked were skipped (what the user's own options rule out, --read-only or no quota key, does
 *   not count). Usage errors, an unreachable target, an unknown key and a key spent before the first request
 *   are exit 2 too, before any report (run.ts).
 * A failure beats "could not judge": a finding about the server is true whatever else went wrong.
 */
import type { Report, RuleResult } from '../types';
import { NOT_EXERCISED, skipCause } from '../../spec/report/skips';

export { CAUSE_TITLES, NOT_EXERCISED, skipCause, skipGroups, THROTTLED } from '../../spec/report/skips';
export type { SkipCause, SkipGroup } from '../../spec/report/skips';

/** More skipped than this share of the rules the run could check: it could not judge (exit 2). */
export const MAX_SKIPPED_SHARE = 0.5;

export interface GateOptions {
  /** `--strict`: a failed assumption rule fails the run too. */
  strict?: boolean;
  /** `--min-coverage PCT` and the coverage observed. */
  minCoverage?: number;
  coveragePercent?: number;
}

export interface GateVerdict {
  code: 0 | 1 | 2;
  /** One line per reason for a code other than 0. */
  reasons: string[];
}

const list = (ids: readonly string[], n = 6): string =>
  `${ids.slice(0, n).join(', ')}${ids.length > n ? `, … (${ids.length} in all)` : ''}`;

/** The exit code of a finished run and why. */
export function judgeRun(report: Report, options: GateOptions = {}): GateVerdict {
  const failed = report.rules.filter(
    (r) => r.status === 'fail' && (options.strict === true || r.kind === 'contract'),
  );
  const reasons: string[] = [];
  if (failed.length > 0) reasons.push(`${failed.length} rule(s) failed: ${list(failed.map((r) => r.id))}`);
  const { minCoverage, coveragePercent } = options;
  if (minCoverage !== undefined && coveragePercent !== undefined && coveragePercent < minCoverage)
    reasons.push(`coverage ${coveragePercent.toFixed(1)}% is under --min-coverage ${minCoverage}%`);
  if (reasons.length > 0) return { code: 1, reasons };
  const cannot = cannotJudge(report);
  return cannot.length > 0 ? { code: 2, reasons: cannot } : { code: 0, reasons: [] };
}

/** Why the run could not judge, or nothing. */
function cannotJudge(report: Report): string[] {
  const out: string[] = [];
  const skipped = report.rules.filter((r) => r.status === 'skip');
  const required = new Set(report.required ?? []);
  const missed = skipped.filter((r) => required.has(r.id));
  if (missed.length > 0)
    out.push(`${missed.length} required rule(s) (--require) were skipped: ${list(missed.map((r) => r.id))}`);
  const cause = (r: RuleResult) => skipCause(r.evidence[0]?.problem || NOT_EXERCISED);
  const throttled = skipped.filter((r) => cause(r) === 'throttled');
  if (throttled.length > 0)
    out.push(
      `${throttled.length} rule(s) skipped because the target rate-limited or banned the run: ${list(throttled.map((r) => r.id))} (use a fresh key, a larger --max-wait or a separate --quota-key)`,
    );
  const checkable = report.rules.filter((r) => r.status !== 'skip' || cause(r) !== 'options');
  const unjudged = skipped.filter((r) => cause(r) !== 'options');
  if (checkable.length > 0 && unjudged.length > checkable.length * MAX_SKIPPED_SHARE)
    out.push(
      `${unjudged.length} of ${checkable.length} rules were skipped: more than ${MAX_SKIPPED_SHARE * 100}% of what this run could check`,
    );
  return out;
}

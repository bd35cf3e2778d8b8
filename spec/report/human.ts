/** A readable terminal table: one line per rule, then evidence of failures, coverage gaps and a summary. */
import type { Report } from './types';
import { bodyExcerpt, cleanupLines, describeEvidence, whyOf } from './describe';
import type { ReportMeta } from './describe';
import { CAUSE_TITLES, skipGroups } from './skips';
import { coverageGapLines } from './coverage';

/**
 * The skipped rules, grouped by cause then reason and counted (empty when none was skipped): the last lines
 * of the human report, and of stderr with another reporter.
 */
export function skipSummaryLines(report: Report, maxIds = 8): string[] {
  const groups = skipGroups(report.rules);
  if (groups.length === 0) return [];
  const total = groups.reduce((n, g) => n + g.rules.length, 0);
  const lines = [`Skipped ${total} of ${report.rules.length} rules:`];
  let cause: string | undefined;
  for (const g of groups) {
    if (g.cause !== cause) {
      cause = g.cause;
      const count = groups.filter((o) => o.cause === g.cause).reduce((n, o) => n + o.rules.length, 0);
      lines.push(`  ${count} ${CAUSE_TITLES[g.cause]}:`);
    }
    const ids = `${g.rules.slice(0, maxIds).join(', ')}${g.rules.length > maxIds ? `, … (${g.rules.length} in all)` : ''}`;
    lines.push(`    ${g.rules.length} × ${g.reason}: ${ids}`);
  }
  return lines;
}

const MARK = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;

/** The human reporter. */
export function formatHuman(report: Report, meta: ReportMeta = {}): string {
  const paint = (status: keyof typeof MARK) => {
    if (!meta.color) return MARK[status];
    const code = status === 'pass' ? 32 : status === 'fail' ? 31 : 33;
    return `\u001b[${code}m${MARK[status]}\u001b[0m`;
  };
  const idWidth = Math.max(...report.rules.map((r) => r.id.length), 4);
  const lines = [
    `Conformance of ${report.target}${meta.seed !== undefined ? ` (seed ${meta.seed})` : ''}`,
    '',
    `${'STAT'} ${'RULE'.padEnd(idWidth)} ${'KIND'.padEnd(10)} ${'SRC'.padEnd(4)} TITLE / WHY`,
  ];
  for (const rule of report.rules) {
    const why = rule.status === 'pass' ? '' : ` — ${whyOf(rule)}`;
    lines.push(
      `${paint(rule.status)} ${rule.id.padEnd(idWidth)} ${rule.kind.padEnd(10)} ${rule.source.padEnd(4)} ${rule.title}${why}`,
    );
  }
  const failed = report.rules.filter((r) => r.status === 'fail');
  if (failed.length > 0) lines.push('', 'Evidence:');
  for (const rule of failed) {
    lines.push(`  ${rule.id} (${rule.kind}, ${rule.source}):`);
    for (const e of rule.evidence) {
      for (const s of e.steps ?? [])
        lines.push(
          `      after: ${s.request.method} ${s.request.url} -> ${s.response?.status ?? 'no response'}`,
        );
      lines.push(`    - ${describeEvidence(e)}`);
      if (e.response) lines.push(`      body: ${bodyExcerpt(e)}`);
    }
  }
  lines.push(...cleanupLines(report));
  const missing = report.coverage.filter((c) => !c.observed);
  const seen = report.coverage.length - missing.length;
  lines.push('', `Coverage: ${seen}/${report.coverage.length} documented (operation, status) pairs observed`);
  // One line per operation with a gap, the first ones only on a large document (GitHub's has 1,223 operations).
  lines.push(...coverageGapLines(report.coverage));
  const skipped = skipSummaryLines(report);
  if (skipped.length > 0) lines.push('', ...skipped);
  const { pass, fail, skip } = report.summary;
  lines.push('', `${pass} passed, ${fail} failed, ${skip} skipped in ${report.durationMs} ms`);
  return `${lines.join('\n')}\n`;
}

/** A Markdown summary for a CI job's summary page. */
import type { Report } from './types';
import { cleanupLines, describeEvidence, whyOf } from './describe';
import type { ReportMeta } from './describe';

const ICON = { pass: '✅ pass', fail: '❌ fail', skip: '⏭️ skip' } as const;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The Markdown reporter. */
export function formatMarkdown(report: Report, meta: ReportMeta = {}): string {
  const { pass, fail, skip } = report.summary;
  const lines = [
    `## Conformance: ${report.target}`,
    '',
    `**${pass} passed, ${fail} failed, ${skip} skipped** in ${report.durationMs} ms${meta.seed !== undefined ? ` (seed ${meta.seed})` : ''}`,
    '',
    '| status | rule | kind | source | title | why |',
    '| --- | --- | --- | --- | --- | --- |',
    ...report.rules.map(
      (r) =>
        `| ${ICON[r.status]} | \`${r.id}\` | ${r.kind} | ${r.source} | ${cell(r.title)} | ${cell(r.status === 'pass' ? '' : whyOf(r))} |`,
    ),
  ];
  const failed = report.rules.filter((r) => r.status === 'fail');
  if (failed.length > 0) lines.push('', '### Evidence');
  for (const rule of failed) {
    lines.push('', `**${rule.id}**`, '');
    for (const e of rule.evidence) lines.push(`- ${cell(describeEvidence(e))}`);
  }
  const missing = report.coverage.filter((c) => !c.observed);
  lines.push(
    '',
    `### Coverage: ${report.coverage.length - missing.length}/${report.coverage.length} observed`,
  );
  if (missing.length > 0)
    lines.push('', ...missing.map((c) => `- not observed: \`${c.method} ${c.path}\` ${c.status}`));
  const cleanup = cleanupLines(report);
  if (cleanup.length > 0)
    lines.push('', `### ${cleanup[1] ?? ''}`, ...cleanup.slice(2).map((l) => `- ${l.trim()}`));
  return `${lines.join('\n')}\n`;
}

/** Reporters only format values: a report in, a string out. */
import type { Report } from './types';
import type { ReportMeta } from './describe';
import { formatHtml } from './html';
import { formatHuman } from './human';
import { formatJunit } from './junit';
import { formatMarkdown } from './markdown';

export type { ReportMeta } from './describe';

export const REPORTERS = ['human', 'json', 'junit', 'markdown', 'html'] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** A library caller's mistake named (issue 21): never a `Cannot read properties of undefined` from a reporter. */
function checkReport(report: unknown, name: unknown): void {
  const r = report as Partial<Report> | null;
  if (typeof r !== 'object' || r === null || !Array.isArray(r.rules) || !r.summary)
    throw new TypeError(
      'formatReport: report must be the report runConformance returned ({ summary, rules, … })',
    );
  if (!(REPORTERS as readonly unknown[]).includes(name))
    throw new TypeError(
      `formatReport: reporter must be one of ${REPORTERS.join(', ')}, got ${JSON.stringify(name)}`,
    );
}

/** Format `report` with the named reporter. */
export function formatReport(report: Report, name: ReporterName, meta: ReportMeta = {}): string {
  checkReport(report, name);
  switch (name) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'junit':
      return formatJunit(report);
    case 'markdown':
      return formatMarkdown(report, meta);
    case 'html':
      return formatHtml(report, meta);
    default:
      return formatHuman(report, meta);
  }
}

/** Reporters only format values: a report in, a string out. */
import type { Report } from './types';
import type { ReportMeta } from './describe';
import { formatCoverage } from './coverage-file';
import { formatHtml } from './html';
import { formatHuman } from './human';
import { formatJunit } from './junit';
import { formatMarkdown } from './markdown';

export type { ReportMeta } from './describe';

/** Every report format by name: a new format is one file in this folder and one line here. */
const FORMATTERS = {
  human: (report: Report, meta: ReportMeta) => formatHuman(report, meta),
  json: (report: Report) => `${JSON.stringify(report, null, 2)}\n`,
  junit: (report: Report) => formatJunit(report),
  markdown: (report: Report, meta: ReportMeta) => formatMarkdown(report, meta),
  html: (report: Report, meta: ReportMeta) => formatHtml(report, meta),
  /** The documented (operation, status) pairs with counts: the file `--coverage` merges. */
  coverage: (report: Report) => formatCoverage(report),
} satisfies Record<string, (report: Report, meta: ReportMeta) => string>;

export type ReporterName = keyof typeof FORMATTERS;
export const REPORTERS = Object.keys(FORMATTERS) as ReporterName[];

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
  return FORMATTERS[name](report, meta);
}

/** Reporters only format values: a report in, a string out. */
import type { Report } from '../types';
import { formatHtml } from './html';
import { formatHuman } from './human';
import { formatJunit } from './junit';
import { formatMarkdown } from './markdown';

export const REPORTERS = ['human', 'json', 'junit', 'markdown', 'html'] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** Extra facts a reporter may show that are not part of the report object. */
export interface ReportMeta {
  seed?: number;
  color?: boolean;
}

/** Format `report` with the named reporter. */
export function formatReport(report: Report, name: ReporterName, meta: ReportMeta = {}): string {
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

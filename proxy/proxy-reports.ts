/** Writes the proxy's reports (`--report junit=FILE,json=FILE,html=FILE,har=FILE`) with the runner's reporters. */
import fs from 'node:fs';
import path from 'node:path';
import { formatReport, REPORTERS, type ReporterName } from '../spec/report/index';
import { toHar } from '../spec/report/har';
import type { Judge } from './judge/judge';
import { packageVersion } from '../spec/paths';

/** Every format of spec/report/, and the HAR of the exchanges kept. */
export type ReportKind = ReporterName | 'har';
export const REPORT_KINDS: readonly ReportKind[] = [...REPORTERS, 'har'];

/** `junit=a.xml,json=b.json` -> the files by kind, or an error naming the bad part. */
export function parseReportSpec(
  text: string,
): { ok: true; files: Partial<Record<ReportKind, string>> } | { ok: false; error: string } {
  const files: Partial<Record<ReportKind, string>> = {};
  for (const part of text.split(',').filter(Boolean)) {
    const eq = part.indexOf('=');
    const kind = part.slice(0, eq) as ReportKind;
    if (eq < 1 || !REPORT_KINDS.includes(kind) || part.slice(eq + 1) === '')
      return {
        ok: false,
        error: `--report: "${part}" is not KIND=FILE with KIND one of ${REPORT_KINDS.join(', ')}`,
      };
    files[kind] = part.slice(eq + 1);
  }
  return { ok: true, files };
}

/** Writes every asked report now; returns the files written. */
export function writeReports(
  judge: Judge,
  target: string,
  files: Partial<Record<ReportKind, string>>,
): string[] {
  const report = judge.report(target);
  const written: string[] = [];
  for (const kind of REPORT_KINDS) {
    const file = files[kind];
    if (!file) continue;
    const text =
      kind === 'har'
        ? `${JSON.stringify(toHar(judge.recent(), packageVersion()), null, 2)}\n`
        : formatReport(report, kind);
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    fs.writeFileSync(file, text);
    written.push(file);
  }
  return written;
}

/** Percentage of documented (operation, status) pairs observed, one decimal. */
export function coveragePercent(judge: Judge, target: string): number {
  const entries = judge.report(target).coverage;
  if (entries.length === 0) return 100;
  return Math.round((entries.filter((e) => e.observed).length / entries.length) * 1000) / 10;
}

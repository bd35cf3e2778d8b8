/** The runner's `--judge-har FILE.har --spec FILE [--report KIND=FILE]… [--min-coverage PERCENT]`. */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SPEC_PATH, loadSpecOrThrow } from '../../spec/load';
import { packageVersion } from '../../spec/paths';
import { formatReport } from '../../spec/report';
import { toHar } from '../../spec/report/har';
import { coverageLine, coverageSummary } from '../../spec/report/coverage';
import { harEntries, judgeHar } from './judge-har';
import { REPORT_KINDS, type ReportKind } from '../proxy-reports';

const KINDS = REPORT_KINDS;

/** Judge a HAR file; resolves to the exit code (0 clean, 1 response-side violation or coverage short, 2 bad input). */
export async function runJudgeHar(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        'judge-har': { type: 'string' },
        spec: { type: 'string' },
        report: { type: 'string', multiple: true },
        'min-coverage': { type: 'string' },
        'max-body-bytes': { type: 'string' },
      },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`conformance: ${(err as Error).message}\n`);
    return 2;
  }
  const file = values['judge-har'] ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    process.stderr.write(`conformance: cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  const entries = harEntries(parsed);
  if (!entries.ok) {
    process.stderr.write(`conformance: ${file}: ${entries.error}\n`);
    return 2;
  }
  const spec = await loadSpecOrThrow(values.spec ?? DEFAULT_SPEC_PATH).catch((err: Error) => err);
  if (spec instanceof Error) {
    process.stderr.write(`conformance: ${spec.message}\n`);
    return 2;
  }
  const maxBody = values['max-body-bytes'];
  if (maxBody !== undefined && !/^[1-9]\d*$/.test(maxBody)) {
    process.stderr.write(`conformance: --max-body-bytes must be a positive integer, got "${maxBody}"\n`);
    return 2;
  }
  const judge = judgeHar(spec, entries.entries, maxBody === undefined ? undefined : Number(maxBody));
  if (judge.snapshot().exchanges === 0) {
    process.stderr.write(
      `conformance: ${file}: no entry with an answer to judge (exit 2: nothing was judged)\n`,
    );
    return 2;
  }
  const report = judge.report(`HAR ${path.basename(file)}`);
  for (const pair of values.report ?? []) {
    const m = /^([a-z]+)=(.+)$/.exec(pair);
    const kind = m?.[1] as ReportKind | undefined;
    if (!m?.[2] || !kind || !KINDS.includes(kind)) {
      process.stderr.write(`conformance: --report ${pair}: KIND=FILE with KIND one of ${KINDS.join(', ')}\n`);
      return 2;
    }
    const text =
      kind === 'har'
        ? JSON.stringify(toHar(judge.recent(), packageVersion()), null, 2)
        : formatReport(report, kind);
    fs.mkdirSync(path.dirname(path.resolve(m[2])), { recursive: true });
    fs.writeFileSync(m[2], text);
  }
  process.stdout.write(formatReport(report, 'human'));
  process.stdout.write(`${coverageLine(report.coverage)}\n`);
  const { percent } = coverageSummary(report.coverage);
  const min = values['min-coverage'] === undefined ? undefined : Number(values['min-coverage']);
  if (min !== undefined && !(min >= 0 && min <= 100)) {
    process.stderr.write(`conformance: --min-coverage is a percentage 0-100\n`);
    return 2;
  }
  return judge.responseViolations() > 0 || (min !== undefined && percent < min) ? 1 : 0;
}

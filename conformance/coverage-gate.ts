/**
 * One coverage gate over every source: `--coverage FILE…` reads coverage files (`--report coverage=FILE` of a
 * runner run, of the proxy, of `--judge-har`), merges them (with this run's coverage when there is a run) and
 * `--min-coverage` gates on the union. Without `--target` it is a command of its own:
 * `petstore-conformance --coverage a.json b.json --min-coverage 80 [--report html=F]… [--reporter NAME]`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { formatReport, REPORTERS, type ReporterName } from '../spec/report';
import { coverageGapLines, coverageLine, coverageSummary } from '../spec/report/coverage';
import { mergeCoverage, parseCoverageFile, type CoverageFile } from '../spec/report/coverage-file';
import type { CoverageEntry, Report } from '../spec/report/types';

/** Largest coverage file read (a document's pairs: GitHub's 1,223 operations make about 1 MB). */
const MAX_BYTES = 64 * 1024 * 1024;

/** Read and check every file; the first problem is the answer (exit 2). */
export async function readCoverageFiles(
  files: readonly string[],
): Promise<{ ok: true; files: CoverageFile[] } | { ok: false; error: string }> {
  const out: CoverageFile[] = [];
  for (const file of files) {
    let parsed: unknown;
    try {
      const stat = await fs.stat(file);
      if (stat.size > MAX_BYTES) return { ok: false, error: `${file} is over ${MAX_BYTES} bytes` };
      parsed = JSON.parse(await fs.readFile(file, 'utf8'));
    } catch (err) {
      return { ok: false, error: `cannot read coverage file ${file}: ${(err as Error).message}` };
    }
    const checked = parseCoverageFile(parsed);
    if (!checked.ok) return { ok: false, error: `${file}: ${checked.error}` };
    out.push(checked.file);
  }
  return { ok: true, files: out };
}

/** This run's coverage and the files', as one union. */
export function unionWith(own: readonly CoverageEntry[], files: readonly CoverageFile[]): CoverageEntry[] {
  return mergeCoverage([own, ...files.map((f) => f.pairs)]);
}

interface CoverageOptions {
  files: string[];
  min?: number;
  reporter: ReporterName;
  reports: { reporter: ReporterName; file: string }[];
}

/** Pure: the arguments of the coverage-only command. */
export function parseCoverageArgs(
  argv: readonly string[],
): { ok: true; options: CoverageOptions } | { ok: false; error: string } {
  const o: CoverageOptions = { files: [], reporter: 'human', reports: [] };
  const isReporter = (n: string): n is ReporterName => (REPORTERS as readonly string[]).includes(n);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    const name = m?.[1];
    if (name === 'coverage') {
      if (m?.[2] !== undefined) o.files.push(m[2]);
      while (argv[i + 1] !== undefined && !argv[i + 1]?.startsWith('--')) o.files.push(argv[++i] ?? '');
      continue;
    }
    const value = m?.[2] ?? argv[++i];
    if (name === 'min-coverage' && value !== undefined && /^\d+(\.\d+)?$/.test(value) && Number(value) <= 100)
      o.min = Number(value);
    else if (name === 'reporter' && value !== undefined && isReporter(value)) o.reporter = value;
    else if (name === 'report' && value !== undefined) {
      const r = /^([a-z]+)=(.+)$/.exec(value);
      if (!r?.[1] || !r[2] || !isReporter(r[1]))
        return {
          ok: false,
          error: `--report needs NAME=FILE with NAME one of ${REPORTERS.join(', ')}, got "${value}"`,
        };
      o.reports.push({ reporter: r[1], file: r[2] });
    } else
      return {
        ok: false,
        error: `"${arg}${m?.[2] === undefined && value !== undefined ? ` ${value}` : ''}": without --target, --coverage takes --min-coverage PCT, --report NAME=FILE and --reporter NAME (see --help)`,
      };
  }
  if (o.files.length === 0) return { ok: false, error: '--coverage needs at least one file' };
  return { ok: true, options: o };
}

/** `--coverage FILE…` without a run; resolves to the exit code (0, 1 under --min-coverage, 2 bad input). */
export async function runCoverageGate(argv: readonly string[]): Promise<number> {
  const fail = (message: string) => (process.stderr.write(`conformance: ${message}\n`), 2);
  const parsed = parseCoverageArgs(argv);
  if (!parsed.ok) return fail(parsed.error);
  const o = parsed.options;
  const read = await readCoverageFiles(o.files);
  if (!read.ok) return fail(read.error);
  const coverage = unionWith([], read.files);
  const report: Report = {
    target: `union of ${read.files.map((f) => f.source).join(', ')}`,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    summary: { pass: 0, fail: 0, skip: 0 },
    rules: [],
    coverage,
  };
  for (const r of o.reports) {
    await fs.mkdir(path.dirname(path.resolve(r.file)), { recursive: true });
    await fs.writeFile(r.file, formatReport(report, r.reporter));
    process.stderr.write(`conformance: ${r.reporter} report in ${r.file}\n`);
  }
  if (o.reporter === 'human')
    process.stdout.write(
      [`${coverageLine(coverage)} in ${o.files.length} file(s)`, ...coverageGapLines(coverage), ''].join(
        '\n',
      ),
    );
  else process.stdout.write(formatReport(report, o.reporter));
  const { percent } = coverageSummary(coverage);
  if (o.min !== undefined && percent < o.min) {
    process.stderr.write(
      `conformance: exit 1: coverage ${percent.toFixed(1)}% is under --min-coverage ${o.min}%\n`,
    );
    return 1;
  }
  return 0;
}

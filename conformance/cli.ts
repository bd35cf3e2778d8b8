/** `npm run conformance -- ...`: parse arguments, run, report, and decide the exit code (0, 1 or 2). */
// First: run as the command, the runner's V8 settings are made before anything else is loaded.
import './v8-flags';
import fs from 'node:fs/promises';
import path from 'node:path';
import { packageVersion } from '../spec/paths';
import { parseArgs } from './args';
import { helpText } from './help';
import { coverageLine, coverageSummary } from '../spec/report/coverage';
import { formatReport } from '../spec/report';
import { judgeRun } from './verdict/gate';
import { readCoverageFiles, runCoverageGate, unionWith } from './coverage-gate';
import { skipSummaryLines } from '../spec/report/human';
import { openHarFile, type HarFile } from './send/har-file';
import { ConformanceError, runConformance } from './run';
import type { ProgressEvent, Report } from './types';

/** Write a report file, creating its folder (CI recipes write into `reports/`). */
async function writeReport(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await fs.writeFile(file, text);
}

/** The exit code of a finished run (docs/check-a-server.md#exit-codes): 0, 1 (a rule failed) or 2 (could not judge). */
export function exitCodeOf(report: Report, strict: boolean): 0 | 1 | 2 {
  return judgeRun(report, { strict }).code;
}

/**
 * Pure: colour in the human report? `FORCE_COLOR` (any value but 0 or false) turns it on and wins over
 * `NO_COLOR` (any non-empty value) which turns it off, as in Node itself; otherwise only on a terminal.
 */
export function wantsColor(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.trim().toLowerCase());
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY;
}

function progress(event: ProgressEvent): void {
  const err = process.stderr;
  if (event.type === 'start')
    err.write(
      `conformance: seed ${event.seed} (replay with --seed ${event.seed}), data prefix ${event.runPrefix}\n`,
    );
  else if (event.type === 'wait') err.write(`\nwaiting ${Math.ceil(event.ms / 1000)} s: ${event.why}\n`);
  else if (event.type === 'callbacks') err.write(`conformance: receiving callbacks at ${event.url}\n`);
  else if (err.isTTY) err.write(progressLine(event, Date.now() - startedAt));
}

let startedAt = Date.now();

/** One line, rewritten in place on a terminal: checks done / total, failures so far, elapsed, the current one. */
export function progressLine(event: Extract<ProgressEvent, { type: 'check' }>, elapsedMs: number): string {
  const elapsed = `${Math.floor(elapsedMs / 60_000)}:${String(Math.floor(elapsedMs / 1000) % 60).padStart(2, '0')}`;
  const end = event.done === event.total ? '\n' : '';
  return `\r\u001b[K[${event.done}/${event.total}] ${event.failed} failed, ${elapsed} ${event.name}${end}`;
}

/**
 * Exit with `code` once stdout and stderr have written everything: `process.exit` right after a large report
 * written to a pipe (`| tee`, a CI log) cuts it short.
 */
export function exitWhenFlushed(code: number): void {
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

/** Run the CLI with these arguments; resolves to the exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  // `--judge-har` (recorded traffic judged offline) is the proxy's: bin/commands.js sends it to proxy/judge/har-cli.
  const flag = (name: string) => argv.some((a) => a === name || a.startsWith(`${name}=`));
  if (flag('--coverage') && !flag('--target') && !flag('--help') && !flag('--version'))
    return runCoverageGate(argv);
  const parsed = parseArgs(argv, env);
  if (!parsed.ok) {
    process.stderr.write(`conformance: ${parsed.error}\n`);
    return 2;
  }
  if (parsed.help === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (parsed.help) {
    process.stdout.write(helpText());
    return 0;
  }
  const { cli } = parsed;
  // Coverage files are checked before the run: a bad one is exit 2 before any request.
  const read = cli.coverageFiles ? await readCoverageFiles(cli.coverageFiles) : undefined;
  if (read && !read.ok) {
    process.stderr.write(`conformance: ${read.error}\n`);
    return 2;
  }
  const prior = read?.files;
  // --compare's modules are loaded only for it.
  if (cli.compare) return (await import('./parity/parity-cli')).runParityCommand(cli, cli.compare);
  let seed: number | undefined;
  let run: Report;
  // --record streams each exchange to disk as it completes; the run keeps none of them.
  let har: HarFile | undefined;
  try {
    har = cli.record ? openHarFile(cli.record, packageVersion()) : undefined;
  } catch (err) {
    process.stderr.write(`conformance: cannot write --record ${cli.record}: ${(err as Error).message}\n`);
    return 2;
  }
  try {
    run = await runConformance({
      ...cli.run,
      ...(har ? { onExchange: har.add } : {}),
      onProgress: (event) => {
        if (event.type === 'start') {
          seed = event.seed;
          startedAt = Date.now();
        }
        progress(event);
      },
    });
  } catch (err) {
    har?.discard();
    if (!(err instanceof ConformanceError)) throw err;
    process.stderr.write(`conformance: ${err.message}\n`);
    return 2;
  }
  // Every report and the --min-coverage gate see the union of this run and the --coverage files.
  const report = prior ? { ...run, coverage: unionWith(run.coverage, prior) } : run;
  if (har && cli.record) {
    const recorded = har.close();
    process.stderr.write(`conformance: ${recorded} exchanges recorded in ${cli.record}\n`);
  }
  for (const extra of cli.reports) {
    await writeReport(extra.file, formatReport(report, extra.reporter, { seed }));
    process.stderr.write(`conformance: ${extra.reporter} report in ${extra.file}\n`);
  }
  const color = !cli.output && wantsColor(env, process.stdout.isTTY === true);
  const text = formatReport(report, cli.reporter, { seed, color });
  if (cli.output) {
    await writeReport(cli.output, text);
    const { pass, fail, skip } = report.summary;
    process.stdout.write(
      `conformance: ${pass} passed, ${fail} failed, ${skip} skipped; report in ${cli.output}\n`,
    );
  } else process.stdout.write(text);
  process.stderr.write(`conformance: ${coverageLine(report.coverage)}\n`);
  const verdict = judgeRun(report, {
    strict: cli.strict,
    minCoverage: cli.minCoverage,
    coveragePercent: coverageSummary(report.coverage).percent,
  });
  // The last lines say what the exit code means (the reporters on stdout have their own summary).
  if (cli.reporter !== 'human' || cli.output)
    for (const line of skipSummaryLines(report)) process.stderr.write(`conformance: ${line}\n`);
  for (const reason of verdict.reasons)
    process.stderr.write(
      `conformance: exit ${verdict.code}: ${verdict.code === 2 ? 'could not judge: ' : ''}${reason}\n`,
    );
  return verdict.code;
}

if (require.main === module) {
  main(process.argv.slice(2), process.env).then(
    (code) => exitWhenFlushed(code),
    (err: unknown) => {
      process.stderr.write(`conformance: internal error: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(2);
    },
  );
}

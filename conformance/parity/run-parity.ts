/**
 * `--target A --compare B`: the same generated cases (one seed, one data prefix, one check at a time, so the
 * same order and the same bodies) sent to two servers, then compared (compare.ts). The mock and staging, or build
 * N and build N+1.
 */
import { loadSpecOrThrow } from '../../spec/load';
import { formatReport, type ReporterName } from '../../spec/report';
import type { Report, RuleResult } from '../../spec/report/types';
import { runConformanceDetailed, type DetailedRun } from '../run';
import type { ConformanceOptions } from '../types';
import { compareRuns, type Difference, type ParityResult } from './compare';

export interface ParityRun {
  result: ParityResult;
  a: DetailedRun;
  b: DetailedRun;
  seed: number;
}

/** Run the same cases against `a.target` and `b.target` (b's other options override a's: key, fetch). */
export async function runParity(
  a: ConformanceOptions,
  b: Partial<ConformanceOptions> & { target: string },
): Promise<ParityRun> {
  const seed = a.seed ?? Math.floor(Math.random() * 2 ** 31);
  const shared = { ...a, seed, concurrency: 1, runPrefix: a.runPrefix ?? `parity-${seed.toString(36)}` };
  const runA = await runConformanceDetailed(shared);
  const runB = await runConformanceDetailed({
    ...shared,
    ...b,
    seed,
    concurrency: 1,
    runPrefix: shared.runPrefix,
  });
  const spec = await loadSpecOrThrow(a.specFile);
  return { result: compareRuns(spec, runA, runB), a: runA, b: runB, seed };
}

/** Differences that matter: all but those the document allows both ways. */
export const findings = (r: ParityResult): Difference[] =>
  r.differences.filter((d) => d.verdict !== 'both-allowed');

const VERDICT_TEXT: Record<Difference['verdict'], string> = {
  'a-right': 'A is right by the document, B is not',
  'b-right': 'B is right by the document, A is not',
  'both-wrong': 'both wrong by the document',
  'both-allowed': 'the document allows both',
};

/** The parity result as a Report value (one case per difference), for JUnit, HTML, Markdown and JSON. */
export function parityReport(run: ParityRun): Report {
  const rules: RuleResult[] = run.result.differences.map((d) => ({
    id: `parity.${d.kind} ${d.where}`,
    title: `A ${d.a.shown}, B ${d.b.shown}: ${VERDICT_TEXT[d.verdict]}`,
    kind: 'contract',
    source: d.verdict,
    status: d.verdict === 'both-allowed' ? 'pass' : 'fail',
    evidence:
      d.verdict === 'both-allowed'
        ? []
        : [
            ...d.a.problems.map((p) => ({ request: null, response: null, problem: `A: ${p}` })),
            ...d.b.problems.map((p) => ({ request: null, response: null, problem: `B: ${p}` })),
          ],
  }));
  const count = (s: RuleResult['status']) => rules.filter((r) => r.status === s).length;
  return {
    target: `${run.result.a} vs ${run.result.b}`,
    startedAt: run.a.report.startedAt,
    durationMs: run.a.report.durationMs + run.b.report.durationMs,
    summary: { pass: count('pass'), fail: count('fail'), skip: 0 },
    rules,
    coverage: run.a.report.coverage,
  };
}

/** The terminal table: each difference, which side the document is on, then the counts. */
export function formatParity(run: ParityRun): string {
  const r = run.result;
  const lines = [`parity: A ${r.a}  B ${r.b}  (seed ${run.seed})`, ''];
  for (const d of r.differences) {
    lines.push(
      `${d.verdict.padEnd(12)} ${d.kind.padEnd(18)} ${d.where}`,
      `    A: ${d.a.shown}   B: ${d.b.shown}`,
    );
    for (const p of d.a.problems.slice(0, 3)) lines.push(`    A ${p}`);
    for (const p of d.b.problems.slice(0, 3)) lines.push(`    B ${p}`);
  }
  const by = (v: Difference['verdict']) => r.differences.filter((d) => d.verdict === v).length;
  lines.push(
    '',
    `${r.paired} requests asked of both, ${r.onlyA} of A only, ${r.onlyB} of B only; ${r.differences.length} difference(s): ` +
      `${by('a-right')} where A is right, ${by('b-right')} where B is right, ${by('both-wrong')} both wrong, ${by('both-allowed')} the document allows both`,
    '',
  );
  return lines.join('\n');
}

/** The parity in one of the report formats. */
export function formatParityAs(run: ParityRun, name: ReporterName): string {
  return name === 'human' ? formatParity(run) : formatReport(parityReport(run), name);
}

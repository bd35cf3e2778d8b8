/**
 * One kit server checked: started, the runner run against it twice (`--fuzz --scenarios none`, then the
 * defaults), every failing verdict collected (each response judged by the run's own response rules, the
 * checks' evidence from the report), and the result scored against `<name>.deviations.yaml`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runConformance } from '../../conformance/run';
import type { Exchange, Report } from '../../conformance/types';
import { loadSpec, type OperationSpec } from '../../spec/load';
import type { CoverageEntry } from '../../spec/report/types';
import { responseChecker } from '../../spec/http/response-checks';
import { outOfReach } from '../../conformance/verdict/unreached';
import { installServer } from './install';
import { scoreRun, type DeviationList, type Failure, type Score, type Traffic } from './score';
import { missingNeed, startServer } from './start';
import type { RealServer } from './servers';

export type Checked = { server: string; skip: string } | { server: string; score: Score; seconds: number };

/** The hand-checked list of `name`. */
export function deviationList(name: string): DeviationList {
  return parseYaml(fs.readFileSync(path.join(__dirname, `${name}.deviations.yaml`), 'utf8')) as DeviationList;
}

/** Install, start, run and score one server; a server that cannot be had here is a skip with the reason. */
export async function checkServer(
  server: RealServer,
  options: { fuzzTimeS?: number } = {},
): Promise<Checked> {
  const missing = missingNeed(server);
  if (missing) return { server: server.name, skip: missing };
  const installed = installServer(server);
  if ('skip' in installed) return { server: server.name, skip: installed.skip };
  const started = Date.now();
  const running = await startServer(server, installed.dir);
  try {
    const loaded = await loadSpec(running.documentFile);
    if (!loaded.ok)
      return {
        server: server.name,
        skip: `its document does not load: ${loaded.error.split('\n')[0] ?? ''}`,
      };
    const judge = responseChecker(loaded.spec);
    const twins = twinsOf(loaded.spec.operations);
    const failures: Failure[] = [];
    const traffic: Traffic = { called: new Set(), fives: new Set() };
    const onExchange = (ex: Exchange) => {
      if (ex.operationId && ex.response)
        for (const id of twins.get(ex.operationId) ?? [ex.operationId]) traffic.called.add(id);
      if (ex.operationId && ex.response && ex.response.status >= 500)
        traffic.fives.add(`${ex.operationId} ${ex.response.status}`);
      for (const f of judge(ex))
        if (f.outcome === 'fail')
          failures.push(failureOf(f.ruleId, ex.request, ex.response ?? null, f.problem ?? ''));
    };
    const base = {
      target: `${running.origin}${server.base}`,
      key: '',
      specFile: running.documentFile,
      seed: 1,
      concurrency: 2,
      onExchange,
    };
    const fuzzed = await runConformance({
      ...base,
      fuzz: true,
      scenariosDir: 'none',
      fuzzTimeS: options.fuzzTimeS ?? 60,
    });
    const plain = await runConformance(base);
    for (const report of [fuzzed, plain]) failures.push(...reportFailures(report));
    const coverage = withTwins(
      fuzzed.coverage.map((c, i) => ({ ...c, observed: c.observed || !!plain.coverage[i]?.observed })),
      twins,
    );
    return {
      server: server.name,
      score: scoreRun(deviationList(server.name), failures, coverage, traffic, (c) => {
        const op = loaded.spec.byId.get(c.operationId);
        return !op || outOfReach(op, c.status) === undefined;
      }),
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await running.stop();
  }
}

/**
 * Operations whose templates differ only in their parameters' names (disease.sh's `/countries/{country}` and
 * `/countries/{countries}`, which OpenAPI says must not both exist): one request is a call of each, whichever
 * the router names, so each is called (and each pair observed) when one of its twins is.
 */
function twinsOf(operations: readonly OperationSpec[]): Map<string, string[]> {
  const shape = (op: OperationSpec) => `${op.method} ${op.path.replace(/\{[^}]*\}/g, '{}')}`;
  const byShape = new Map<string, string[]>();
  for (const op of operations) byShape.set(shape(op), [...(byShape.get(shape(op)) ?? []), op.operationId]);
  return new Map(operations.map((op) => [op.operationId, byShape.get(shape(op)) ?? [op.operationId]]));
}

function withTwins(coverage: CoverageEntry[], twins: Map<string, string[]>): CoverageEntry[] {
  const seen = new Set(coverage.filter((c) => c.observed).map((c) => `${c.operationId} ${c.status}`));
  const observedByTwin = (c: CoverageEntry) =>
    (twins.get(c.operationId) ?? []).some((id) => seen.has(`${id} ${c.status}`));
  return coverage.map((c) => ({ ...c, observed: c.observed || observedByTwin(c) }));
}

/** The failing contract verdicts of a report (assumption rules report what the document leaves unsaid). */
function reportFailures(report: Report): Failure[] {
  return report.rules
    .filter((r) => r.status === 'fail' && r.kind === 'contract')
    .flatMap((r) => r.evidence.map((e) => failureOf(r.id, e.request, e.response, e.problem)));
}

function failureOf(
  rule: string,
  request: { method: string; url: string } | null,
  response: { status: number } | null,
  problem: string,
): Failure {
  const url = request ? new URL(request.url) : undefined;
  return {
    rule,
    method: request?.method ?? '',
    path: url?.pathname ?? '',
    status: response?.status,
    problem,
  };
}

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
import { loadSpec } from '../../spec/load';
import { responseChecker } from '../../spec/http/response-checks';
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
    const failures: Failure[] = [];
    const traffic: Traffic = { called: new Set(), fives: new Set() };
    const onExchange = (ex: Exchange) => {
      if (ex.operationId && ex.response) traffic.called.add(ex.operationId);
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
    const coverage = fuzzed.coverage.map((c, i) => ({
      ...c,
      observed: c.observed || !!plain.coverage[i]?.observed,
    }));
    return {
      server: server.name,
      score: scoreRun(deviationList(server.name), failures, coverage, traffic),
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await running.stop();
  }
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

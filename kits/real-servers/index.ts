/**
 * `npm run real-servers` (issue 39): each server of the kit (servers.ts) installed into node_modules/.cache,
 * started, checked by the runner (`--fuzz --scenarios none`, then the defaults) and scored against its
 * hand-checked list: deviations found and missed, false verdicts, operations called, documented (operation,
 * status) pairs observed, distinct 5xx. A server that cannot be had here is skipped with the reason.
 * ONLY=name,name picks servers; FUZZ_TIME=S bounds each fuzz phase (default 60). Exit 1 on a missed deviation
 * or a false verdict.
 */
import { checkServer, type Checked } from './check';
import { SERVERS } from './servers';
import type { Score } from './score';

async function main(): Promise<void> {
  const only = process.env.ONLY?.split(',');
  const fuzzTimeS = Number(process.env.FUZZ_TIME ?? 60);
  const results: Checked[] = [];
  for (const server of SERVERS.filter((s) => !only || only.includes(s.name))) {
    process.stdout.write(`${server.name}: installing and checking…\n`);
    const result = await checkServer(server, { fuzzTimeS }).catch((err: Error): Checked => ({
      server: server.name,
      skip: err.message,
    }));
    results.push(result);
    process.stdout.write(`${line(result)}\n`);
    if ('score' in result)
      for (const text of distinct(result.score.falseVerdicts)) process.stdout.write(`    false: ${text}\n`);
  }
  process.stdout.write(`\n${table(results)}\n`);
  const bad = results.some(
    (r) => 'score' in r && (r.score.missed.length > 0 || r.score.falseVerdicts.length > 0),
  );
  process.exitCode = bad ? 1 : 0;
}

/** The false verdicts, one line per rule, method, status and path (its numbers and long segments blanked). */
function distinct(failures: Score['falseVerdicts']): string[] {
  const seen = new Map<string, string>();
  for (const f of failures) {
    const shape = f.path.replace(/\/[^/]*\d[^/]*|\/[^/]{24,}/g, '/…');
    const key = `${f.rule} ${f.method} ${shape} -> ${f.status ?? '-'}`;
    if (!seen.has(key)) seen.set(key, `${key}: ${f.problem.slice(0, 160)}`);
  }
  return [...seen.values()];
}

function line(r: Checked): string {
  if ('skip' in r) return `  ${r.server}: skipped: ${r.skip}`;
  const s = r.score;
  const missed = s.missed.length ? ` (missed: ${s.missed.join(', ')})` : '';
  const uncalled = s.operations.uncalled.length ? ` (not called: ${s.operations.uncalled.join(', ')})` : '';
  return `  ${r.server}: found ${s.found.length}/${s.found.length + s.missed.length}${missed}, false ${s.falseVerdicts.length}, operations ${s.operations.called}/${s.operations.total}${uncalled}, pairs ${s.pairs.observed}/${s.pairs.documented} (within reach ${s.pairs.reached}/${s.pairs.reachable}), distinct 5xx ${s.distinct5xx}, ${r.seconds} s`;
}

/** The Markdown table docs/real-servers.md shows. */
export function table(results: readonly Checked[]): string {
  const rows = results.map((r) => {
    if ('skip' in r) return `| ${r.server} | skipped: ${r.skip} | | | | | |`;
    const s = r.score;
    return `| ${r.server} | ${s.found.length}/${s.found.length + s.missed.length} | ${s.falseVerdicts.length} | ${s.operations.called}/${s.operations.total} | ${s.pairs.observed}/${s.pairs.documented} | ${s.pairs.reached}/${s.pairs.reachable} | ${s.distinct5xx} |`;
  });
  return [
    '| server | deviations found | false verdicts | operations called | (operation, status) pairs observed | within reach | distinct 5xx |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

if (require.main === module) void main();

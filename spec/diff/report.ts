/**
 * Pure: a diff as the runner's Report value (so the JUnit, HTML and Markdown reporters format it like every
 * report), its JSON, and the terminal table. One test case per change and per operation the traffic breaks.
 */
import { formatReport, type ReporterName } from '../report';
import type { Evidence, Report, RuleResult } from '../report/types';
import type { ClassifiedChange, DiffResult, OperationTraffic, TrafficReplay } from './types';
import { trafficAccount, type DiffVerdict } from './verdict';

/** Whether a breaking change fails the gate: always without traffic; with traffic when exercised or --strict. */
const fails = (c: ClassifiedChange, traffic: boolean, strict: boolean) =>
  c.breaking && (!traffic || strict || c.exercised === true);

const where = (c: ClassifiedChange) =>
  `${c.method} ${c.path}${c.status ? ` ${c.status}` : ''}${c.where ? ` ${c.where}` : ''}`;

/** How the traffic stands to a change: `used 3×` (exercised), `not hit` (its operation called, this change not), `unused`. */
export function usage(c: ClassifiedChange): string {
  if (c.exercised) return `used ${c.calls}×`;
  return (c.operationCalls ?? 0) > 0 ? 'not hit' : 'unused';
}

function changeRule(c: ClassifiedChange, traffic: boolean, strict: boolean): RuleResult {
  const exercised =
    c.exercised === undefined
      ? ''
      : c.exercised
        ? `; exercised by ${c.calls} recorded call(s)`
        : (c.operationCalls ?? 0) > 0
          ? `; ${c.operationCalls} recorded call(s) of the operation, none exercises it`
          : '; no recorded call uses the operation';
  const problem = `${c.breaking ? 'breaking' : 'compatible'}: ${c.message}${exercised}`;
  const status = fails(c, traffic, strict) ? 'fail' : c.breaking ? 'skip' : 'pass';
  return {
    id: `diff.${c.kind} ${where(c)}`,
    title: c.message,
    kind: 'contract',
    source: `${c.method} ${c.path}`,
    status,
    evidence: status === 'pass' ? [] : [{ request: null, response: null, problem }],
  };
}

function trafficRules(t: OperationTraffic): RuleResult[] {
  const evidence = (): Evidence[] =>
    t.examples.map((e) => ({
      request: { method: e.method, url: e.url, headers: {} },
      response: null,
      problem: e.problem,
    }));
  const out: RuleResult[] = [];
  const source = `${t.method} ${t.path}`;
  const reasons = Object.entries(t.reasons)
    .map(([m, k]) => `${k}× ${m}`)
    .join('; ');
  const accepted = t.calls;
  if (t.refused > 0)
    out.push({
      id: `traffic.refused ${t.operationId}`,
      title: `${t.refused} of ${accepted} recorded ${t.operationId} requests would be refused (${reasons})`,
      kind: 'contract',
      source,
      status: 'fail',
      evidence: evidence(),
    });
  if (t.rejected > 0)
    out.push({
      id: `traffic.rejected ${t.operationId}`,
      title: `${t.rejected} of ${accepted} recorded ${t.operationId} answers would be rejected (${reasons})`,
      kind: 'contract',
      source,
      status: 'fail',
      evidence: evidence(),
    });
  return out;
}

/** What was judged, what was outside the old document, what was counted apart: a test case each. */
function accountRules(t: TrafficReplay): RuleResult[] {
  const rule = (id: string, title: string, status: RuleResult['status'], problem: string): RuleResult => ({
    id,
    title,
    kind: 'contract',
    source: t.files.join(', '),
    status,
    evidence: status === 'pass' ? [] : [{ request: null, response: null, problem }],
  });
  const { judged } = trafficAccount(t);
  const out = [rule('traffic.judged', `${judged} of ${t.recorded} recorded requests judged`, 'pass', '')];
  if (t.outside > 0)
    out.push(
      rule(
        'traffic.outside',
        `${t.outside} of ${t.recorded} recorded requests outside the old document`,
        'skip',
        'they address no operation of the old document (another host or an undocumented path): not judged',
      ),
    );
  if (t.alreadyRefused > 0)
    out.push(
      rule(
        'traffic.already-refused',
        `${t.alreadyRefused} of ${t.recorded} recorded requests already refused by the old version`,
        'skip',
        "the old version refuses them too (the client's own fault, not a change): counted apart",
      ),
    );
  return out;
}

/** The diff as a Report value. */
export function diffReport(
  result: DiffResult,
  strict: boolean,
  startedAt = new Date(),
  durationMs = 0,
): Report {
  const traffic = result.traffic !== undefined;
  const rules = [
    ...result.changes.map((c) => changeRule(c, traffic, strict)),
    ...(result.traffic?.operations.flatMap(trafficRules) ?? []),
    ...(result.traffic ? accountRules(result.traffic) : []),
  ];
  const count = (s: RuleResult['status']) => rules.filter((r) => r.status === s).length;
  return {
    target: `${result.old.file} -> ${result.new.file}`,
    startedAt: startedAt.toISOString(),
    durationMs,
    summary: { pass: count('pass'), fail: count('fail'), skip: count('skip') },
    rules,
    coverage: [],
  };
}

/** The terminal table: one line per change, then what the traffic does, then the headline counts. */
export function formatDiffTable(result: DiffResult, verdict: DiffVerdict): string {
  const lines = [
    `diff ${result.old.file} (${result.old.version ?? '?'}) -> ${result.new.file} (${result.new.version ?? '?'})`,
    '',
  ];
  if (result.changes.length === 0) lines.push('no changes');
  // The second column (used N× / unused) only when traffic was replayed.
  const rows = result.changes.map((c) => [
    c.breaking ? 'BREAKING' : 'compatible',
    ...(result.traffic ? [usage(c)] : []),
    where(c),
    c.message,
  ]);
  const columns = result.traffic ? 3 : 2;
  const widths = [0, 1, 2].map((i) => Math.max(0, ...rows.map((r) => (r[i] ?? '').length)));
  for (const r of rows)
    lines.push(r.map((cell, i) => (i < columns ? cell.padEnd(widths[i] ?? 0) : cell)).join('  '));
  for (const t of result.traffic?.operations ?? []) {
    if (t.refused === 0 && t.rejected === 0) continue;
    lines.push(
      '',
      `${t.operationId} (${t.method} ${t.path}): ${t.calls} recorded, ${t.refused} refused, ${t.rejected} answers rejected`,
    );
    for (const [m, k] of Object.entries(t.reasons)) lines.push(`  ${k}× ${m}`);
    const examples = t.examples.map((e) => `  e.g. ${e.method} ${e.url}${e.status ? ` -> ${e.status}` : ''}`);
    lines.push(...new Set(examples));
  }
  lines.push('', ...verdict.headlines, '');
  return lines.join('\n');
}

/** The diff in one of the report formats (`json`: the diff itself and the verdict). */
export function formatDiff(
  result: DiffResult,
  verdict: DiffVerdict,
  name: ReporterName,
  strict: boolean,
): string {
  if (name === 'json') return `${JSON.stringify({ ...result, verdict }, null, 2)}\n`;
  if (name === 'human') return formatDiffTable(result, verdict);
  return formatReport(diffReport(result, strict), name);
}

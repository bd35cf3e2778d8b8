/** Issue 23's speed goals judged from one proxy run, and the section's table. Pure. */
import { verdict, type Goal } from './goals';
import { table } from './lib/table';

/** One way of reaching the upstream: throughput under load, median sequential latency, what it adds. */
export interface ProxyRow {
  name: string;
  rps: number;
  medianMs: number;
  /** Median latency minus the upstream's own (no proxy). */
  addedMs: number;
}

export interface ProxyResult {
  rows: ProxyRow[];
  goals: Goal[];
}

const x = (r: number) => `${r.toFixed(2)}×`;

/** ≥ 0.6× the bare pass-through, ≥ 5× Prism's proxy, under 1 ms added at the median. */
export function judgeProxy(rows: ProxyRow[]): Goal[] {
  const find = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
  const ours = find('ours');
  const bare = find('bare');
  const prism = find('Prism');
  if (!ours) return [];
  const goals: Goal[] = [];
  if (bare)
    goals.push({
      goal: 'proxy req/s ≥ 0.6× bare pass-through',
      measured: x(ours.rps / bare.rps),
      held: ours.rps / bare.rps >= 0.6,
    });
  goals.push(
    prism
      ? {
          goal: 'proxy req/s ≥ 5× Prism’s proxy',
          measured: x(ours.rps / prism.rps),
          held: ours.rps / prism.rps >= 5,
        }
      : { goal: 'proxy req/s ≥ 5× Prism’s proxy', measured: 'Prism not run', held: null },
  );
  goals.push({
    goal: 'added latency (median) < 1 ms',
    measured: `${ours.addedMs.toFixed(2)} ms`,
    held: ours.addedMs < 1,
  });
  return goals;
}

/** The section as text. */
export function formatProxy(r: ProxyResult): string {
  const rows = [['GET /v1/categories (10 items)', 'req/s', 'median latency', 'added latency']];
  for (const row of r.rows)
    rows.push([
      row.name,
      Math.round(row.rps).toLocaleString('en-US'),
      `${row.medianMs.toFixed(2)} ms`,
      `${row.addedMs.toFixed(2)} ms`,
    ]);
  return [
    'Validation proxy: in front of one fixed upstream (plain node, canned bytes), each in its own process',
    table(rows),
    '',
    'Targets of issue 23 (ratios within this run)',
    table([['target', 'measured', 'verdict'], ...r.goals.map((g) => [g.goal, g.measured, verdict(g)])]),
    '',
  ].join('\n');
}

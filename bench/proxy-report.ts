/** The proxy section's goals judged from one run (issues 23 and 42), and its table. Pure. */
import { verdict, type Goal } from './goals';
import { median } from './lib/load';
import { table } from './lib/table';

/** One way of reaching the mock: throughput under load (per round, with the load), sequential latency. */
export interface ProxyRow {
  name: string;
  /** Median req/s of the rounds. */
  rps: number;
  /** req/s of each round, in order. */
  rounds: number[];
  /** The 1-minute load average when each round ended (`os.loadavg()[0]`). */
  loads: number[];
  medianMs: number;
  /** Median latency minus the mock's own (no proxy). */
  addedMs: number;
}

export interface ProxyResult {
  rows: ProxyRow[];
  goals: Goal[];
  connections: number;
  seconds: number;
}

const x = (r: number) => `${r.toFixed(2)}×`;
const rps = (n: number) => Math.round(n).toLocaleString('en-US');

/** Ours over the pass-through, round by round (they ran alternating, so each pair saw the same machine). */
export function pairedRatios(ours: ProxyRow, bare: ProxyRow): number[] {
  return ours.rounds.flatMap((r, i) => {
    const b = bare.rounds[i];
    return b ? [r / b] : [];
  });
}

/** ≥ 0.75× the bare pass-through (median of the paired rounds), ≥ 5× Prism's proxy, < 1 ms added. */
export function judgeProxy(rows: ProxyRow[]): Goal[] {
  const find = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
  const ours = find('ours');
  const bare = find('bare');
  const prism = find('Prism');
  if (!ours) return [];
  const goals: Goal[] = [];
  const ratios = bare ? pairedRatios(ours, bare) : [];
  if (ratios.length > 0) {
    const r = median(ratios);
    goals.push({ goal: 'proxy req/s ≥ 0.75× bare pass-through', measured: x(r), held: r >= 0.75 });
  }
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

/** The section as text: each row's median, its rounds with the load beside each, ours/this per round. */
export function formatProxy(r: ProxyResult): string {
  const ours = r.rows.find((row) => row.name.startsWith('ours'));
  const head = ['GET /v1/categories (10 stored)', 'req/s', 'rounds: req/s (load)', 'ours/this'];
  const rows = [[...head, 'median latency', 'added latency']];
  for (const row of r.rows) {
    const ratios = ours && row !== ours ? pairedRatios(ours, row) : [];
    rows.push([
      row.name,
      rps(row.rps),
      row.rounds.map((n, i) => `${rps(n)} (${(row.loads[i] ?? 0).toFixed(2)})`).join(', '),
      ratios.length > 1
        ? `${x(median(ratios))} (${ratios.map(x).join(', ')})`
        : ratios.length === 1
          ? x(ratios[0] as number)
          : ours && row !== ours
            ? x(ours.rps / row.rps)
            : '',
      `${row.medianMs.toFixed(2)} ms`,
      `${row.addedMs.toFixed(2)} ms`,
    ]);
  }
  return [
    `Validation proxy: in front of our mock, each in its own process; autocannon -c ${r.connections}, ` +
      `${r.seconds} s per round, the pass-through and ours alternating; load = 1-minute load average`,
    table(rows),
    '',
    'Targets of issues 23 and 42 (ratios within this run)',
    table([['target', 'measured', 'verdict'], ...r.goals.map((g) => [g.goal, g.measured, verdict(g)])]),
    '',
  ].join('\n');
}

/** Format a bench result as plain-text tables (also pasted, as is, into docs/performance.md). */
import { verdict } from './goals';
import { formatLarge } from './large-report';
import { formatProxy } from './proxy-report';
import { table } from './lib/table';
import type { BenchResult, CellResult, WorkloadResult } from './results';
import type { Timing } from './startup';
import type { TargetName } from './workloads';

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const num = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
const ratio = (a?: number, b?: number) => (a && b ? `${(a / b).toFixed(2)}×` : '-');

function statusMix(c: CellResult): string {
  const total = Object.values(c.statuses).reduce((a, b) => a + b, 0) || 1;
  return Object.entries(c.statuses)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => (n / total > 0.995 ? code : `${code} ${((100 * n) / total).toFixed(1)}%`))
    .join(', ');
}

const LABEL: Record<TargetName, string> = {
  ours: 'ours (--quiet)',
  'ours-log': 'ours (default log → file)',
  'ours-10': 'ours (--quiet, full spec, 10 stored)',
  'ours-10k': 'ours (--quiet, full spec, 10,000 stored)',
  prism: 'Prism 5.12 (-v silent)',
  'prism-log': 'Prism 5.12 (default log → file)',
  ceiling: 'ceiling (plain node, canned bytes)',
};

function workloadTable(name: string, w: WorkloadResult): string[] {
  const ours = w.targets[w.ours];
  const rows = [['target', 'req/s', 'p50 ms', 'p99 ms', 'peak RSS', 'statuses', 'ours/this (req/s)']];
  for (const [t, c] of Object.entries(w.targets) as [TargetName, CellResult][]) {
    // Like with like: the logged Prism is compared with our logged mock, everything else with ours muted.
    const mine = t === 'prism-log' ? w.targets['ours-log'] : ours;
    const vs = t.startsWith('ours') ? '' : ratio(mine?.rps, c.rps);
    rows.push([LABEL[t], num(c.rps), num(c.p50), num(c.p99), mb(c.peakRss), statusMix(c), vs]);
  }
  const summary = [`ours/ceiling ${ratio(ours?.rps, w.targets.ceiling?.rps)}`];
  if (w.targets.prism) summary.push(`ours/Prism silent ${ratio(ours?.rps, w.targets.prism.rps)}`);
  if (w.targets['ours-log'] && w.targets['prism-log'])
    summary.push(`ours logged/Prism logged ${ratio(w.targets['ours-log'].rps, w.targets['prism-log'].rps)}`);
  return [`${w.title}  [${name}]`, table(rows), summary.join(' · '), ''];
}

const timing = (t: Timing | null, what: string) =>
  t ? `${what} ${t.medianMs.toFixed(0)} ms (${t.runsMs.map((m) => m.toFixed(0)).join(', ')})` : `${what} -`;

/** Every table of the run, with the machine and the settings it ran with. */
export function formatReport(r: BenchResult): string {
  const out: string[] = [];
  const m = r.machine;
  out.push(
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.platform}, node ${m.node}; load average at start ${m.loadStart.map((l) => l.toFixed(2)).join(' ')}, at end ${m.loadEnd.map((l) => l.toFixed(2)).join(' ')}`,
    `Load: autocannon -c ${r.settings.connections}, ${r.settings.rounds} interleaved round(s) × ${r.settings.seconds} s after ${r.settings.warmupSeconds} s warm-up; medians of rounds; peak RSS = largest VmRSS sampled during the runs`,
    '',
  );
  for (const [name, w] of Object.entries(r.workloads)) if (w) out.push(...workloadTable(name, w));
  for (const [name, why] of Object.entries(r.skipped)) out.push(`[${name}] skipped: ${why}`);
  const byId10 = r.workloads['by-id-10']?.targets['ours-10']?.rps;
  const byId10k = r.workloads['by-id-10k']?.targets['ours-10k']?.rps;
  if (byId10 && byId10k) out.push(`GET by id: 10,000 stored / 10 stored ${ratio(byId10k, byId10)}`);
  out.push(
    '',
    `Start-up to first answered request (median of runs): ${[
      timing(r.startup.dist, 'node dist/mock/node/main.js'),
      timing(r.startup.npmStart, 'npm start (build up to date)'),
      timing(r.startup.prism, 'Prism'),
    ].join('; ')}`,
    `Peak RSS over the whole load (VmHWM): ${Object.entries(r.peakRssOverall)
      .map(([t, b]) => `${t} ${mb(b)}`)
      .join(', ')}`,
    `Default conformance suite against our mock: ${r.conformance.ms.toFixed(0)} ms (pass ${r.conformance.pass}, fail ${r.conformance.fail}, skip ${r.conformance.skip})`,
    '',
  );
  const fa = r.fetchAdapter;
  out.push(
    'Fetch adapter in-process (createFetchHandler, no sockets; one request at a time: build the Request, await the Response, read its body)',
    table([
      ['workload', 'req/s', 'µs per request', 'statuses'],
      ...Object.entries(fa.rps).map(([name, rps]) => [
        name,
        num(rps),
        (1e6 / rps).toFixed(1),
        Object.entries(fa.statuses[name] ?? {})
          .map(([code, n]) => `${code} × ${n.toLocaleString('en-US')}`)
          .join(', '),
      ]),
    ]),
    '',
  );
  if (r.growth.length) {
    const rows = [
      [
        'stored',
        'list bytes',
        'req/s (c=4)',
        'p50 ms',
        'p99 ms',
        'GET after POST ms',
        'repeated GET ms',
        'idle RSS',
        'bytes/category',
      ],
    ];
    for (const g of r.growth)
      rows.push([
        g.stored.toLocaleString('en-US'),
        g.listBytes.toLocaleString('en-US'),
        num(g.rps),
        num(g.p50),
        num(g.p99),
        g.missMs.toFixed(2),
        g.hitMs.toFixed(2),
        mb(g.rssIdle),
        g.bytesPerCategory === null ? 'within noise' : g.bytesPerCategory.toFixed(0),
      ]);
    out.push(
      `Cost as data grows (baseline idle RSS with none stored: ${mb(r.growth[0]?.rssBaseline ?? 0)})`,
      table(rows),
      '',
    );
  }
  if (r.large) out.push(formatLarge(r.large));
  if (r.proxy) out.push(formatProxy(r.proxy));
  out.push(
    'Targets of issue 14 (ratios within this run)',
    table([['target', 'measured', 'verdict'], ...r.goals.map((g) => [g.goal, g.measured, verdict(g)])]),
    '',
  );
  return `${out.join('\n')}\n`;
}

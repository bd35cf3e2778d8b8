/**
 * `npm run bench`: our mock against the bare ceiling (bench/ceiling-server.js: plain node, canned bytes) and
 * Prism's mock, in one run with interleaved rounds, medians reported (issues 5 and 14). Prints one table per
 * workload, the targets as held or missed, and writes bench/results/latest.json.
 * Flags: --quick (about a minute), --rounds N, --seconds S, --connections C, --skip-growth, --skip-large, --skip-proxy,
 * --no-prism, --logs (also the logged variants of ours and Prism), --cpu-prof.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runConformance } from '../conformance/index';
import { measureFetchAdapter } from './fetch-adapter';
import { judgeGoals, type Goal } from './goals';
import { measureGrowth, type GrowthResult } from './growth';
import { LARGE_DEFAULTS, measureLarge } from './large';
import { PROXY_DEFAULTS, measureProxy } from './proxy';
import { median, runLoad, type LoadResult } from './lib/load';
import { memoryOf, resetPeak } from './lib/proc';
import { formatReport } from './report';
import type { BenchResult, CellResult, Settings, WorkloadResult } from './results';
import { measureStartup } from './startup';
import {
  FULL_SPEC,
  byIdUnavailable,
  captureAnswers,
  ceilingTarget,
  oursArgs,
  oursTarget,
  passiveTarget,
  startCeiling,
  startOurs,
  startPrism,
  workDir,
  type Target,
  type WorkDir,
} from './targets';
import { PRO_KEY, workloads, type TargetName, type Workload } from './workloads';

function settingsFromArgv(): Settings {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      'skip-growth': { type: 'boolean' },
      'skip-large': { type: 'boolean' },
      'skip-proxy': { type: 'boolean' },
      'no-prism': { type: 'boolean' },
      logs: { type: 'boolean' },
      'cpu-prof': { type: 'boolean' },
    },
  });
  const quick = values.quick ?? false;
  const growth = values['skip-growth'] ? [] : quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  return {
    rounds: Number(values.rounds ?? (quick ? 1 : 3)),
    seconds: Number(values.seconds ?? (quick ? 1 : 2)),
    warmupSeconds: quick ? 0.5 : 1,
    connections: Number(values.connections ?? 50),
    startupRuns: quick ? 3 : 5,
    growthSizes: growth,
    large: !values['skip-large'],
    proxy: !values['skip-proxy'],
    prism: !values['no-prism'],
    logs: values.logs ?? false,
    cpuProf: values['cpu-prof'] ?? false,
  };
}

const say = (s: string) => process.stderr.write(`${s}\n`);

async function measureConformance(w: WorkDir): Promise<BenchResult['conformance']> {
  const server = await startOurs('ours', oursArgs('ours', w));
  try {
    const t0 = performance.now();
    const report = await runConformance({ target: `http://127.0.0.1:${server.port}/v1`, key: PRO_KEY });
    return { ms: performance.now() - t0, ...report.summary };
  } finally {
    await server.stop();
  }
}

/** Start every server the workloads name; the by-id pair only when the full spec exists. */
async function startTargets(
  s: Settings,
  w: WorkDir,
  list: readonly Workload[],
): Promise<Partial<Record<TargetName, Target>>> {
  const wanted = new Set(list.flatMap((x) => [x.ours, ...x.others]));
  const targets: Partial<Record<TargetName, Target>> = {};
  // --cpu-prof: our muted mock writes a V8 CPU profile when it stops (bench/profile-summary.ts reads it).
  const prof = s.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', path.join(__dirname, 'results', 'profiles')] : [];
  for (const name of ['ours', 'ours-log', 'ours-10', 'ours-10k'] as const) {
    if (!wanted.has(name)) continue;
    const log = name === 'ours-log' ? path.join(w.dir, 'ours.log') : null;
    targets[name] = oursTarget(
      name,
      await startOurs(name, oursArgs(name, w), log, name === 'ours' ? prof : []),
    );
  }
  if (wanted.has('prism'))
    targets.prism = passiveTarget('prism', 'prism', await startPrism('prism', w.prismSpec, null));
  if (wanted.has('prism-log'))
    targets['prism-log'] = passiveTarget(
      'prism-log',
      'prism',
      await startPrism('prism-log', w.prismSpec, path.join(w.dir, 'prism.log')),
    );
  return targets;
}

/** The workloads this run can do, and why the others are skipped. */
async function planWorkloads(s: Settings): Promise<{ list: Workload[]; skipped: Record<string, string> }> {
  const skipped: Record<string, string> = {};
  let list = workloads(s.logs).map((w) => ({
    ...w,
    others: w.others.filter((t) => s.prism || !t.startsWith('prism')),
  }));
  if (!fs.existsSync(FULL_SPEC)) {
    for (const name of ['by-id-10', 'by-id-10k'])
      skipped[name] = `${path.relative(process.cwd(), FULL_SPEC)} not found`;
    list = list.filter((w) => !skipped[w.name]);
  }
  return { list, skipped };
}

function cell(runs: LoadResult[]): CellResult {
  const statuses: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  return {
    runs,
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    peakRss: Math.max(...runs.map((r) => r.peakRss)),
    statuses,
  };
}

/** Interleaved rounds: each round runs every workload on every target, the order rotated per round. */
async function loadRounds(
  s: Settings,
  list: readonly Workload[],
  targets: Partial<Record<TargetName, Target>>,
): Promise<Map<string, LoadResult[]>> {
  const runs = new Map<string, LoadResult[]>();
  const cells = list.reduce((n, w) => n + 1 + w.others.length, 0);
  say(
    `bench: load, ${s.rounds} interleaved round(s) of ${s.seconds} s after ${s.warmupSeconds} s warm-up, -c ${s.connections} (about ${Math.round(cells * (s.rounds * s.seconds + s.warmupSeconds))} s)…`,
  );
  for (let round = -1; round < s.rounds; round++) {
    for (const w of list) {
      const names = [w.ours, ...w.others];
      // Rotate the order every round so no target always runs first (or right after another's load).
      const order = names.map((_, i) => names[(i + Math.max(round, 0)) % names.length] as TargetName);
      for (const name of order) {
        const t = targets[name];
        if (!t) continue;
        await t.prepare(w);
        const result = await runLoad({
          port: t.portFor?.(w) ?? t.server.port,
          path: w.path,
          request: w.request,
          rotate: w.rotate,
          seconds: round < 0 ? s.warmupSeconds : s.seconds,
          connections: s.connections,
          pid: t.server.pid,
          periodic: t.during(w),
        });
        if (round < 0) continue; // warm-up: JIT, caches, connection set-up; not reported
        const key = `${w.name}/${name}`;
        runs.set(key, [...(runs.get(key) ?? []), result]);
      }
    }
    if (round >= 0) say(`bench: round ${round + 1}/${s.rounds} done`);
  }
  return runs;
}

function goalsOf(r: Omit<BenchResult, 'goals'>): Goal[] {
  const rps: Parameters<typeof judgeGoals>[0]['rps'] = {};
  for (const [name, w] of Object.entries(r.workloads)) {
    const ours = w?.targets[w.ours];
    if (!w || !ours) continue;
    const total = Object.values(ours.statuses).reduce((a, b) => a + b, 0);
    rps[name] = {
      ours: ours.rps,
      ceiling: w.targets.ceiling?.rps,
      expectedShare: total === 0 ? 0 : (ours.statuses[String(w.expect)] ?? 0) / total,
    };
  }
  return judgeGoals({
    rps,
    startupDistMs: r.startup.dist.medianMs,
    startupNpmStartMs: r.startup.npmStart?.medianMs ?? null,
    peakRssBytes: r.peakRssOverall.ours ?? null,
    fetchAdapterRps: r.fetchAdapter.rps.list ?? null,
    skipped: r.skipped,
  });
}

async function main(): Promise<void> {
  const s = settingsFromArgv();
  const t0 = Date.now();
  const loadStart = os.loadavg();
  say(
    `bench: ${os.cpus().length} cores, node ${process.version}, load average ${loadStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const w = workDir();
  say('bench: start-up to first answer…');
  const startup = await measureStartup(s.startupRuns, s.prism ? w.prismSpec : null);
  say('bench: default conformance suite against our mock…');
  const conformance = await measureConformance(w);

  const { list: planned, skipped } = await planWorkloads(s);
  const targets = await startTargets(s, w, planned);
  const probe = targets['ours-10'];
  const byIdProblem = probe ? await byIdUnavailable(probe.server.port, 10) : null;
  if (byIdProblem) {
    skipped['by-id-10'] = skipped['by-id-10k'] = byIdProblem;
    say(`bench: skipping the by-id workloads: ${byIdProblem}`);
  }
  const list = planned.filter((x) => !skipped[x.name]);
  const { answers, answered } = await captureAnswers(targets, list);
  targets.ceiling = ceilingTarget(await startCeiling(w.dir, answers), answered);
  for (const t of Object.values(targets)) resetPeak(t.server.pid);

  const runs = await loadRounds(s, list, targets);
  const workloadResults: BenchResult['workloads'] = {};
  for (const x of list) {
    const cells: WorkloadResult['targets'] = {};
    for (const name of [x.ours, ...x.others]) cells[name] = cell(runs.get(`${x.name}/${name}`) ?? []);
    workloadResults[x.name] = { title: x.title, ours: x.ours, expect: x.expect, targets: cells };
  }
  const peakRssOverall: BenchResult['peakRssOverall'] = {};
  for (const t of Object.values(targets)) peakRssOverall[t.name] = memoryOf(t.server.pid)?.hwm ?? 0;
  for (const t of Object.values(targets)) await t.server.stop();

  say('bench: the fetch adapter in-process (createFetchHandler, no sockets)…');
  const fetchAdapter = await measureFetchAdapter(s.seconds);

  const growth: GrowthResult[] = [];
  if (s.growthSizes.length) {
    say(`bench: cost as data grows (${s.growthSizes.join(', ')} stored categories)…`);
    growth.push(...(await measureGrowth(s.growthSizes, w.dir, w.keysFile, s.seconds)));
  }
  const large = s.large
    ? await measureLarge({ ...LARGE_DEFAULTS, seconds: s.seconds, prism: s.prism })
    : null;
  const proxy = s.proxy
    ? await measureProxy({
        ...PROXY_DEFAULTS,
        seconds: s.seconds,
        rounds: s.rounds,
        connections: s.connections,
        prism: s.prism,
      })
    : null;
  const partial: Omit<BenchResult, 'goals'> = {
    startedAt: new Date(t0).toISOString(),
    durationS: (Date.now() - t0) / 1000,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      node: process.version,
      platform: `${os.type()} ${os.release()}`,
      loadStart,
      loadEnd: os.loadavg(),
    },
    settings: s,
    startup,
    workloads: workloadResults,
    skipped,
    peakRssOverall,
    conformance,
    fetchAdapter,
    growth,
    large,
    proxy,
  };
  const result: BenchResult = { ...partial, goals: goalsOf(partial) };
  const out = path.join(__dirname, 'results', 'latest.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  fs.rmSync(w.dir, { recursive: true, force: true });
  process.stdout.write(formatReport(result));
  say(`bench: results in ${path.relative(process.cwd(), out)}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

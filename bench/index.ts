/**
 * `npm run bench`: our mock against Prism's mock and a bare node:http ceiling, side by side in one run
 * (issue 5). Prints one table per workload and writes bench/results/latest.json.
 * Flags: --quick (about 40 s), --rounds N, --seconds S, --connections C, --skip-growth, --cpu-prof.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runConformance } from '../conformance/index';
import { measureGrowth, type GrowthResult } from './growth';
import { median, runLoad, type LoadResult } from './lib/load';
import { resetPeak, memoryOf } from './lib/proc';
import { formatReport } from './report';
import {
  CATEGORIES,
  captureAnswers,
  oursTarget,
  passiveTarget,
  startCeiling,
  startOurs,
  startPrism,
  workDir,
  type Target,
  type TargetName,
} from './targets';
import { WORKLOADS, type WorkloadName } from './workloads';

export interface Settings {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  startupRuns: number;
  growthSizes: number[];
  cpuProf: boolean;
}

/** Which targets run which workload: logging variants only where the issue sets a target for them. */
const PLAN: Record<WorkloadName, TargetName[]> = {
  list: ['ours', 'prism', 'ceiling', 'ours-log', 'prism-log'],
  create: ['ours', 'prism', 'ceiling', 'ours-log', 'prism-log'],
  unauthorized: ['ours', 'prism', 'ceiling'],
  invalid: ['ours', 'prism', 'ceiling'],
  limited: ['ours', 'prism', 'ceiling'],
};

export interface CellResult {
  runs: LoadResult[];
  rps: number;
  p50: number;
  p99: number;
  peakRss: number;
  statuses: Record<string, number>;
}

export interface BenchResult {
  startedAt: string;
  durationS: number;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    platform: string;
    loadStart: number[];
    loadEnd: number[];
  };
  settings: Settings;
  startup: Record<'ours' | 'prism', { runsMs: number[]; medianMs: number }>;
  workloads: Record<string, { title: string; targets: Partial<Record<TargetName, CellResult>> }>;
  peakRssOverall: Partial<Record<TargetName, number>>;
  conformance: { ms: number; pass: number; fail: number; skip: number };
  growth: GrowthResult[];
}

function settingsFromArgv(): Settings {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      'skip-growth': { type: 'boolean' },
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
    startupRuns: quick ? 1 : 3,
    growthSizes: growth,
    cpuProf: values['cpu-prof'] ?? false,
  };
}

const say = (s: string) => process.stderr.write(`${s}\n`);

/** Start-up to first answered request, ours and Prism alternately, each a fresh process. */
async function measureStartup(
  s: Settings,
  keysFile: string,
  prismSpec: string,
): Promise<BenchResult['startup']> {
  const ours: number[] = [];
  const prism: number[] = [];
  for (let i = 0; i < s.startupRuns; i++) {
    const o = await startOurs('ours', keysFile, null);
    ours.push(o.startupMs);
    await o.stop();
    const p = await startPrism('prism', prismSpec, null);
    prism.push(p.startupMs);
    await p.stop();
  }
  return {
    ours: { runsMs: ours, medianMs: median(ours) },
    prism: { runsMs: prism, medianMs: median(prism) },
  };
}

async function measureConformance(keysFile: string): Promise<BenchResult['conformance']> {
  const server = await startOurs('ours', keysFile, null);
  try {
    const t0 = performance.now();
    const report = await runConformance({
      target: `http://127.0.0.1:${server.port}/v1`,
      key: 'bench-pro-key',
    });
    return { ms: performance.now() - t0, ...report.summary };
  } finally {
    await server.stop();
  }
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

async function main(): Promise<void> {
  const s = settingsFromArgv();
  const t0 = Date.now();
  const loadStart = os.loadavg();
  say(
    `bench: ${os.cpus().length} cores, node ${process.version}, load average ${loadStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const { dir, keysFile, prismSpec } = workDir();
  say('bench: start-up to first answer (ours, Prism)…');
  const startup = await measureStartup(s, keysFile, prismSpec);
  say('bench: default conformance suite against our mock…');
  const conformance = await measureConformance(keysFile);

  // --cpu-prof: our muted mock writes a V8 CPU profile when it stops (open it in Chrome DevTools).
  const prof = s.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', path.join(__dirname, 'results', 'profiles')] : [];
  const ours = oursTarget('ours', await startOurs('ours', keysFile, null, prof));
  const answers = await captureAnswers(ours, WORKLOADS);
  const targets: Record<TargetName, Target> = {
    ours,
    'ours-log': oursTarget('ours-log', await startOurs('ours-log', keysFile, path.join(dir, 'ours.log'))),
    prism: passiveTarget('prism', 'prism', await startPrism('prism', prismSpec, null)),
    'prism-log': passiveTarget(
      'prism-log',
      'prism',
      await startPrism('prism-log', prismSpec, path.join(dir, 'prism.log')),
    ),
    ceiling: passiveTarget('ceiling', 'ceiling', await startCeiling(dir, answers)),
  };
  for (const t of Object.values(targets)) resetPeak(t.server.pid);

  const runs = new Map<string, LoadResult[]>();
  const total =
    WORKLOADS.reduce((n, w) => n + PLAN[w.name].length, 0) * (s.rounds * s.seconds + s.warmupSeconds);
  say(
    `bench: load, ${s.rounds} interleaved round(s) of ${s.seconds} s after ${s.warmupSeconds} s warm-up, -c ${s.connections} (about ${Math.round(total)} s)…`,
  );
  for (let round = -1; round < s.rounds; round++) {
    for (const w of WORKLOADS) {
      const names = PLAN[w.name];
      // Rotate the order every round so no target always runs first (or right after another's load).
      const order = names.map((_, i) => names[(i + Math.max(round, 0)) % names.length] as TargetName);
      for (const name of order) {
        const t = targets[name];
        await t.prepare(w);
        const result = await runLoad({
          port: t.server.port,
          path: CATEGORIES,
          request: w.request(t.kind),
          seconds: round < 0 ? s.warmupSeconds : s.seconds,
          connections: s.connections,
          pid: t.server.pid,
        });
        if (round < 0) continue; // warm-up: JIT, caches, connection set-up; not reported
        const key = `${w.name}/${name}`;
        runs.set(key, [...(runs.get(key) ?? []), result]);
      }
    }
    if (round >= 0) say(`bench: round ${round + 1}/${s.rounds} done`);
  }

  const workloads: BenchResult['workloads'] = {};
  for (const w of WORKLOADS) {
    const cells: Partial<Record<TargetName, CellResult>> = {};
    for (const name of PLAN[w.name]) cells[name] = cell(runs.get(`${w.name}/${name}`) ?? []);
    workloads[w.name] = { title: w.title, targets: cells };
  }
  const peakRssOverall: BenchResult['peakRssOverall'] = {};
  for (const t of Object.values(targets)) peakRssOverall[t.name] = memoryOf(t.server.pid)?.hwm ?? 0;
  for (const t of Object.values(targets)) await t.server.stop();

  const growth: GrowthResult[] = [];
  if (s.growthSizes.length) {
    say(`bench: cost as data grows (${s.growthSizes.join(', ')} stored categories)…`);
    growth.push(...(await measureGrowth(s.growthSizes, dir, keysFile, s.seconds)));
  }
  const result: BenchResult = {
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
    workloads,
    peakRssOverall,
    conformance,
    growth,
  };
  const out = path.join(__dirname, 'results', 'latest.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  process.stdout.write(formatReport(result));
  say(`bench: results in ${path.relative(process.cwd(), out)}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

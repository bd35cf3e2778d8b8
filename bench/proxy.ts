/**
 * The "validation proxy" section of `npm run bench` (issues 23 and 42), also runnable alone
 * (`npm run bench:proxy`): `GET /v1/categories` through a proxy in front of **our mock** (10 stored, an
 * enterprise key no run exhausts), as issue 42 measures it. Each in its own process: the mock, the bare
 * node:http pass-through (bench/passthrough-server.js: a kept-alive agent, piping both ways, judging nothing),
 * our validation proxy, Prism's proxy. The pass-through and ours are loaded in alternating rounds in the same
 * run (the order swapping each round), 50 connections; reported: medians of the rounds, the ratio per round,
 * and the machine's load beside each figure. Latency each adds: the median of sequential requests through it
 * minus that of the same requests sent to the mock directly.
 * Flags when run alone: --seconds S, --rounds N, --connections C, --no-prism.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sequentialMedian } from './lib/latency';
import { median, runLoad } from './lib/load';
import { freePort, startServer, type ServerProcess } from './lib/proc';
import { formatProxy, judgeProxy, type ProxyResult, type ProxyRow } from './proxy-report';
import { MOCK_MAIN, PRISM_MAIN, PROXY_MAIN, ROOT, workDir, type WorkDir } from './targets';
import { CATEGORIES, ENT_KEY } from './workloads';

export interface ProxySettings {
  seconds: number;
  rounds: number;
  connections: number;
  latencyRequests: number;
  prism: boolean;
}

export const PROXY_DEFAULTS: ProxySettings = {
  seconds: 3,
  rounds: 3,
  connections: 50,
  latencyRequests: 300,
  prism: true,
};

const AUTH = { Authorization: `Bearer ${ENT_KEY}` };
const say = (s: string) => process.stderr.write(`${s}\n`);
const SPEC = path.join(ROOT, 'spec', 'openapi.yaml');

/** The mock as the proxies' upstream: compiled, muted, 10 categories stored, the bench's keys. */
export const mockArgs = (port: number, w: WorkDir): string[] => [
  MOCK_MAIN,
  '--port',
  String(port),
  '--keys',
  w.keysFile,
  '--seed',
  w.seed10,
  '--ban-threshold',
  '0',
  '--quiet',
];

/** The bare pass-through in front of the mock on `upstreamPort` (`{port}`: its own, filled in at start). */
export const bareArgs = (upstreamPort: number): string[] => [
  path.join(__dirname, 'passthrough-server.js'),
  '--port',
  '{port}',
  '--upstream-port',
  String(upstreamPort),
];

/** Our proxy (report mode, muted) in front of `upstream` (an origin). */
export const oursProxyArgs = (main: string, upstream: string): string[] => [
  main,
  '--proxy',
  `${upstream}/v1`,
  '--spec',
  SPEC,
  '--port',
  '{port}',
  '--quiet',
];

const medianLatency = (port: number, n: number) => sequentialMedian(port, CATEGORIES, n, AUTH);

/** One load run of GET of the list: req/s and the load average when it ended (every answer a 200, or it throws). */
async function throughput(
  name: string,
  server: ServerProcess,
  s: ProxySettings,
): Promise<{ rps: number; load: number }> {
  const request = { method: 'GET' as const, headers: AUTH, body: '' };
  const r = await runLoad({
    port: server.port,
    path: CATEGORIES,
    request,
    seconds: s.seconds,
    connections: s.connections,
    pid: server.pid,
  });
  const non200 = Object.entries(r.statuses).filter(([code]) => code !== '200');
  if (non200.length || r.errors)
    throw new Error(`${name} under load: ${JSON.stringify(r.statuses)}, ${r.errors} errors`);
  return { rps: r.rps, load: os.loadavg()[0] ?? 0 };
}

async function startProcess(name: string, args: string[], timeoutMs = 20_000): Promise<ServerProcess> {
  const port = await freePort();
  const withPort = args.map((a) => (a === '{port}' ? String(port) : a));
  return startServer({ name, args: withPort, port, probePath: CATEGORIES, logFile: null, timeoutMs });
}

/** A row of its rounds: median req/s, the load beside each round, median latency (after a warm-up). */
async function latencyOf(server: ServerProcess, s: ProxySettings): Promise<number> {
  await medianLatency(server.port, 50);
  return medianLatency(server.port, s.latencyRequests);
}

const rowOf = (name: string, rounds: Array<{ rps: number; load: number }>, medianMs: number): ProxyRow => ({
  name,
  rps: median(rounds.map((r) => r.rps)),
  rounds: rounds.map((r) => r.rps),
  loads: rounds.map((r) => r.load),
  medianMs,
  addedMs: 0,
});

/**
 * The pass-through and ours, loaded in alternating rounds (bare first in even rounds, ours first in odd
 * ones), so a change in the machine's load falls on both; one warm-up run each first.
 */
async function alternate(bare: ServerProcess, ours: ServerProcess, s: ProxySettings) {
  const warm = { ...s, seconds: Math.min(1, s.seconds) };
  await throughput('bare pass-through', bare, warm);
  await throughput('ours', ours, warm);
  const rounds: Record<'bare' | 'ours', Array<{ rps: number; load: number }>> = { bare: [], ours: [] };
  for (let i = 0; i < s.rounds; i++) {
    say(`bench: validation proxy: round ${i + 1} of ${s.rounds} (load ${os.loadavg()[0]?.toFixed(2)})…`);
    const order = i % 2 === 0 ? (['bare', 'ours'] as const) : (['ours', 'bare'] as const);
    for (const which of order) rounds[which].push(await throughput(which, which === 'bare' ? bare : ours, s));
  }
  return rounds;
}

/** The whole section: the mock directly, the bare pass-through and ours alternating, Prism's proxy. */
export async function measureProxy(s: ProxySettings): Promise<ProxyResult> {
  const w = workDir();
  const mockPort = await freePort();
  const mock = await startServer({
    name: 'mock (upstream)',
    args: mockArgs(mockPort, w),
    port: mockPort,
    probePath: CATEGORIES,
    logFile: null,
  });
  const up = `http://127.0.0.1:${mockPort}`;
  const started: ServerProcess[] = [];
  try {
    say('bench: validation proxy: the mock directly…');
    const direct = await latencyOf(mock, s);
    const mockLoad = [await throughput('mock', mock, s)];
    const rows = [rowOf('mock (no proxy)', mockLoad, direct)];
    const bare = await startProcess('bare', bareArgs(mockPort));
    started.push(bare);
    const ours = await startProcess('ours proxy', oursProxyArgs(PROXY_MAIN, up));
    started.push(ours);
    const latency = { bare: await latencyOf(bare, s), ours: await latencyOf(ours, s) };
    const rounds = await alternate(bare, ours, s);
    rows.push(rowOf('bare pass-through', rounds.bare, latency.bare));
    rows.push(rowOf('ours (--proxy)', rounds.ours, latency.ours));
    for (const p of started.splice(0)) await p.stop();
    if (s.prism) {
      say('bench: validation proxy: Prism’s proxy…');
      const prismArgs = [PRISM_MAIN, 'proxy', '-h', '127.0.0.1', '-p', '{port}', SPEC, up, '-v', 'silent'];
      const prism = await startProcess('prism proxy', prismArgs, 60_000);
      started.push(prism);
      rows.push(rowOf('Prism proxy', [await throughput('Prism', prism, s)], await latencyOf(prism, s)));
    }
    for (const row of rows) row.addedMs = row.medianMs - direct;
    return { rows, goals: judgeProxy(rows), connections: s.connections, seconds: s.seconds };
  } finally {
    for (const p of started) await p.stop();
    await mock.stop();
    fs.rmSync(w.dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      'no-prism': { type: 'boolean' },
    },
  });
  const settings: ProxySettings = {
    ...PROXY_DEFAULTS,
    seconds: Number(values.seconds ?? PROXY_DEFAULTS.seconds),
    rounds: Number(values.rounds ?? PROXY_DEFAULTS.rounds),
    connections: Number(values.connections ?? PROXY_DEFAULTS.connections),
    prism: !values['no-prism'],
  };
  process.stdout.write(formatProxy(await measureProxy(settings)));
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });

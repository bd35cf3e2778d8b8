/**
 * The "validation proxy" section of `npm run bench` (issue 23), also runnable alone (`npm run bench:proxy`):
 * one fixed upstream (plain node, canned bytes of a pet store list), and in front of it, each in its own
 * process: the bare node:http pass-through (bench/passthrough-server.js), our validation proxy, Prism's proxy.
 * Throughput of GET of the list under load, and the latency each adds: the median of sequential requests
 * through it minus the median of the same requests sent to the upstream directly.
 * Flags when run alone: --seconds S, --no-prism.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sequentialMedian } from './lib/latency';
import { runLoad } from './lib/load';
import { freePort, startServer, type ServerProcess } from './lib/proc';
import { formatProxy, judgeProxy, type ProxyResult, type ProxyRow } from './proxy-report';
import { PRISM_MAIN, PROXY_MAIN, ROOT, startCeiling } from './targets';
import { CATEGORIES, ENT_KEY } from './workloads';

export interface ProxySettings {
  seconds: number;
  latencyRequests: number;
  prism: boolean;
}

export const PROXY_DEFAULTS: ProxySettings = { seconds: 3, latencyRequests: 300, prism: true };

const AUTH = { Authorization: `Bearer ${ENT_KEY}` };
const say = (s: string) => process.stderr.write(`${s}\n`);
const SPEC = path.join(ROOT, 'spec', 'openapi.yaml');

/** Ten categories as the pet store's list answers them, with its rate-limit headers. */
function listAnswer() {
  const items = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `category-${i + 1}` }));
  const reset = String(Math.ceil(Date.now() / 1000) + 3600);
  const headers = ['Content-Type', 'application/json', 'X-RateLimit-Limit', '1000000'];
  headers.push('X-RateLimit-Remaining', '999999', 'X-RateLimit-Reset', reset);
  const common = { method: 'GET', path: CATEGORIES, requestBody: '', status: 200, headers };
  return { ...common, authorization: AUTH.Authorization, body: JSON.stringify(items) };
}

const medianLatency = (port: number, n: number) => sequentialMedian(port, CATEGORIES, n, AUTH);

/** Requests per second of GET of the list under load (every answer a 200, or it throws). */
async function throughput(name: string, server: ServerProcess, seconds: number): Promise<number> {
  const request = { method: 'GET' as const, headers: AUTH, body: '' };
  const r = await runLoad({
    port: server.port,
    path: CATEGORIES,
    request,
    seconds,
    connections: 16,
    pid: server.pid,
  });
  const non200 = Object.entries(r.statuses).filter(([code]) => code !== '200');
  if (non200.length || r.errors)
    throw new Error(`${name} under load: ${JSON.stringify(r.statuses)}, ${r.errors} errors`);
  return r.rps;
}

async function measure(name: string, server: ServerProcess, s: ProxySettings): Promise<ProxyRow> {
  try {
    await medianLatency(server.port, 50); // warm up
    const medianMs = await medianLatency(server.port, s.latencyRequests);
    return { name, rps: await throughput(name, server, s.seconds), medianMs, addedMs: 0 };
  } finally {
    await server.stop();
  }
}

async function startProcess(name: string, args: string[], timeoutMs = 20_000): Promise<ServerProcess> {
  const port = await freePort();
  const withPort = args.map((a) => (a === '{port}' ? String(port) : a));
  return startServer({ name, args: withPort, port, probePath: CATEGORIES, logFile: null, timeoutMs });
}

/** The whole section: upstream direct, the bare pass-through, ours, Prism's proxy. */
export async function measureProxy(s: ProxySettings): Promise<ProxyResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-proxy-bench-'));
  const upstream = await startCeiling(dir, [listAnswer()]);
  const up = `http://127.0.0.1:${upstream.port}`;
  try {
    const rows: ProxyRow[] = [];
    say('bench: validation proxy: the upstream directly…');
    const direct = await medianLatency(upstream.port, s.latencyRequests);
    const rps = await throughput('upstream', upstream, s.seconds);
    rows.push({ name: 'upstream (no proxy)', rps, medianMs: direct, addedMs: 0 });
    say('bench: validation proxy: bare node:http pass-through…');
    const bareArgs = [
      path.join(__dirname, 'passthrough-server.js'),
      '--port',
      '{port}',
      '--upstream-port',
      String(upstream.port),
    ];
    rows.push(await measure('bare pass-through', await startProcess('bare', bareArgs), s));
    say('bench: validation proxy: ours (--proxy, report mode)…');
    const oursArgs = [PROXY_MAIN, '--proxy', `${up}/v1`, '--spec', SPEC, '--port', '{port}', '--quiet'];
    rows.push(await measure('ours (--proxy)', await startProcess('ours proxy', oursArgs), s));
    if (s.prism) {
      say('bench: validation proxy: Prism’s proxy…');
      const prismArgs = [PRISM_MAIN, 'proxy', '-h', '127.0.0.1', '-p', '{port}', SPEC, up, '-v', 'silent'];
      rows.push(await measure('Prism proxy', await startProcess('prism proxy', prismArgs, 60_000), s));
    }
    for (const row of rows) row.addedMs = row.medianMs - direct;
    return { rows, goals: judgeProxy(rows) };
  } finally {
    await upstream.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, 'no-prism': { type: 'boolean' } } });
  const settings = {
    ...PROXY_DEFAULTS,
    seconds: Number(values.seconds ?? PROXY_DEFAULTS.seconds),
    prism: !values['no-prism'],
  };
  process.stdout.write(formatProxy(await measureProxy(settings)));
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });

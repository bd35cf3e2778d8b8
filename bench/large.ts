/**
 * The "large document" section of `npm run bench` (issue 22), also runnable alone (`npm run bench:large`):
 * our mock and Prism's mock side by side on GitHub's REST description (start to first answer, peak RSS, median
 * latency and throughput of `GET /meta`), then our mock on the generated family of 10 … 5,000 operations.
 * Flags when run alone: --seconds S (each throughput run), --no-prism.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatLarge, judgeLarge, type FamilyRow, type LargeResult, type SideBySide } from './large-report';
import { githubDocument } from './lib/github-document';
import { sequentialMedian } from './lib/latency';
import { runLoad } from './lib/load';
import { syntheticDocument } from './lib/synthetic-document';
import { freePort, memoryOf, startServer, type ServerProcess } from './lib/proc';
import { MOCK_MAIN, ROOT, startPrism } from './targets';
import { CATEGORIES, ENT_KEY } from './workloads';

export interface LargeSettings {
  seconds: number;
  latencyRequests: number;
  familySizes: number[];
  prism: boolean;
}

export const LARGE_DEFAULTS: LargeSettings = {
  seconds: 3,
  latencyRequests: 200,
  familySizes: [10, 100, 1_000, 5_000],
  prism: true,
};

const META = '/meta';
const AUTH = { Authorization: `Bearer ${ENT_KEY}` };
const say = (s: string) => process.stderr.write(`${s}\n`);

/** The installed Prism's version (package.json of @stoplight/prism-cli). */
export function prismVersion(): string {
  const file = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Our mock on `spec`, muted, without seed data, the bench's keys; `cold` turns the validation cache off. */
async function startOurs(spec: string, keysFile: string, probePath: string, cold: boolean) {
  const port = await freePort();
  const args = [MOCK_MAIN, '--port', String(port), '--spec', spec, '--seed', 'none', '--quiet'];
  args.push('--keys', keysFile, '--ban-threshold', '0');
  const env = cold ? { SPEC_VALIDATION_CACHE: 'off' } : undefined;
  return startServer({ name: `ours ${path.basename(spec)}`, args, port, probePath, logFile: null, env });
}

async function throughput(server: ServerProcess, p: string, seconds: number): Promise<number> {
  const request = { method: 'GET' as const, headers: AUTH, body: '' };
  const r = await runLoad({ port: server.port, path: p, request, seconds, connections: 10, pid: server.pid });
  const ok = Object.entries(r.statuses).every(([code]) => code.startsWith('2'));
  if (!ok) throw new Error(`GET ${p} under load answered ${JSON.stringify(r.statuses)}`);
  return r.rps;
}

/** Latency, throughput and peak RSS of a started server, then stop it. */
async function measureServed(server: ServerProcess, s: LargeSettings) {
  try {
    const startRss = memoryOf(server.pid)?.hwm ?? 0;
    const medianMs = await sequentialMedian(server.port, META, s.latencyRequests, AUTH);
    const rps = await throughput(server, META, s.seconds);
    return { startMs: server.startupMs, startRss, peakRss: memoryOf(server.pid)?.hwm ?? 0, medianMs, rps };
  } finally {
    await server.stop();
  }
}

async function measureOurs(doc: string, keysFile: string, s: LargeSettings): Promise<SideBySide> {
  // Prime the validation cache (a start like any user's first), then one cold and one warm start.
  await (await startOurs(doc, keysFile, META, false)).stop();
  const cold = await startOurs(doc, keysFile, META, true);
  await cold.stop();
  const warm = await measureServed(await startOurs(doc, keysFile, META, false), s);
  return { ...warm, coldStartMs: cold.startupMs };
}

async function petstoreRps(keysFile: string, s: LargeSettings): Promise<number> {
  const spec = path.join(ROOT, 'spec', 'openapi.yaml');
  const server = await startOurs(spec, keysFile, CATEGORIES, false);
  try {
    return await throughput(server, CATEGORIES, s.seconds);
  } finally {
    await server.stop();
  }
}

/** Cold start (validation cache off) and peak RSS of our mock on each generated document. */
async function measureFamily(dir: string, keysFile: string, sizes: number[]): Promise<FamilyRow[]> {
  const rows: FamilyRow[] = [];
  for (const n of sizes) {
    const file = path.join(dir, `synthetic-${n}.json`);
    fs.writeFileSync(file, JSON.stringify(syntheticDocument(n)));
    const bytes = fs.statSync(file).size;
    const server = await startOurs(file, keysFile, '/v1/r0', true);
    const peakRss = memoryOf(server.pid)?.hwm ?? 0;
    await server.stop();
    rows.push({ operations: n, bytes, startMs: server.startupMs, peakRss });
  }
  return rows;
}

/** The whole section: GitHub's description side by side, the pet store baseline, the generated family. */
export async function measureLarge(s: LargeSettings): Promise<LargeResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-large-'));
  const keysFile = path.join(dir, 'keys.json');
  const keys = [{ key: ENT_KEY, plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000_000 }];
  fs.writeFileSync(keysFile, JSON.stringify({ keys }));
  try {
    say('bench: large document: fetching GitHub’s description (cached in node_modules/.cache)…');
    const doc = githubDocument();
    say('bench: large document: our mock on GitHub’s description (primed, cold, warm)…');
    const ours = await measureOurs(doc, keysFile, s);
    let prism: SideBySide | null = null;
    if (s.prism) {
      say(`bench: large document: Prism ${prismVersion()} on GitHub’s description (about 10 s to start)…`);
      prism = await measureServed(await startPrism('prism github', doc, null, META), s);
    }
    say('bench: large document: the pet store’s GET /v1/categories (throughput baseline)…');
    const petstore = await petstoreRps(keysFile, s);
    say(`bench: large document: the generated family (${s.familySizes.join(', ')} operations)…`);
    const family = await measureFamily(dir, keysFile, s.familySizes);
    const partial = { prismVersion: prismVersion(), ours, prism, petstoreRps: petstore, family };
    return { ...partial, goals: judgeLarge(partial) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function settingsFromArgv(): LargeSettings {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, 'no-prism': { type: 'boolean' } } });
  return {
    ...LARGE_DEFAULTS,
    seconds: Number(values.seconds ?? LARGE_DEFAULTS.seconds),
    prism: !values['no-prism'],
  };
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const result = await measureLarge(settingsFromArgv());
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  say(
    `bench: ${os.cpus().length} × ${cpu}, node ${process.version}, ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  process.stdout.write(formatLarge(result));
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });

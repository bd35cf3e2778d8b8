/**
 * Cost as data grows (issue 5): list latency and server memory with N stored categories, memory per
 * category, and proof that a repeated GET with no write in between does not re-serialise the list (the mock
 * keeps the serialised bytes by store version): a GET right after a POST (cache miss) against a repeated GET.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { median, runLoad } from './lib/load';
import { memoryOf, type ServerProcess } from './lib/proc';
import { startOurs } from './targets';
import { CATEGORIES, ENT_KEY } from './workloads';

export interface GrowthResult {
  stored: number;
  /** Idle RSS after start-up with N seeded categories, and the baseline with none (bytes). */
  rssIdle: number;
  rssBaseline: number;
  /** (idle RSS − the next smaller size's idle RSS) / (difference in count); null when within RSS noise. */
  bytesPerCategory: number | null;
  listBytes: number;
  /** GET under load (c=4): a repeated GET, served from the cached bytes. */
  rps: number;
  p50: number;
  p99: number;
  peakRss: number;
  /** One GET right after a POST (must serialise) against the GET repeated straight after it (ms, medians). */
  missMs: number;
  hitMs: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Time one request to its last byte (ms), and the body length. */
function timed(
  port: number,
  method: string,
  body?: string,
): Promise<{ ms: number; bytes: number; status: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const headers: Record<string, string> = { Authorization: `Bearer ${ENT_KEY}` };
    if (body) headers['Content-Type'] = 'application/json';
    const req = http.request({ host: '127.0.0.1', port, path: CATEGORIES, method, headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ ms: performance.now() - t0, bytes, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** RSS once it stops moving (the mock loads Prism in the background right after it starts listening). */
async function settledRss(pid: number): Promise<number> {
  let last = memoryOf(pid)?.rss ?? 0;
  for (let waited = 0; waited < 8000; waited += 250) {
    await new Promise((r) => setTimeout(r, 250));
    const now = memoryOf(pid)?.rss ?? 0;
    if (waited >= 1500 && Math.abs(now - last) < 512 * 1024) return now;
    last = now;
  }
  return last;
}

async function measureOne(server: ServerProcess, stored: number, baseline: number, seconds: number) {
  const rssIdle = await settledRss(server.pid);
  const { bytes: listBytes } = await timed(server.port, 'GET');
  const load = await runLoad({
    port: server.port,
    path: CATEGORIES,
    request: { method: 'GET', headers: { Authorization: `Bearer ${ENT_KEY}` }, body: '' },
    seconds,
    connections: 4,
    pid: server.pid,
  });
  const miss: number[] = [];
  const hit: number[] = [];
  for (let i = 0; i < 15; i++) {
    // A create that is not stored (a 409 at the record cap) would leave the cache warm and measure nothing.
    const created = await timed(server.port, 'POST', JSON.stringify({ name: `growth-${i}` }));
    if (created.status !== 201)
      throw new Error(`growth: POST answered ${created.status} with ${stored} stored`);
    miss.push((await timed(server.port, 'GET')).ms);
    hit.push((await timed(server.port, 'GET')).ms);
  }
  return {
    stored,
    rssIdle,
    rssBaseline: baseline,
    bytesPerCategory: null as number | null,
    listBytes,
    rps: load.rps,
    p50: load.p50,
    p99: load.p99,
    peakRss: load.peakRss,
    missMs: median(miss),
    hitMs: median(hit),
  };
}

/** Start one muted mock per size, seeded from a file of N categories, and measure it. */
export async function measureGrowth(
  sizes: readonly number[],
  dir: string,
  keysFile: string,
  seconds: number,
): Promise<GrowthResult[]> {
  const base = await startOurs('ours', ['--keys', keysFile, '--seed', 'none', '--quiet']);
  const baseline = await settledRss(base.pid);
  await base.stop();
  const results: GrowthResult[] = [];
  for (const n of sizes) {
    const seedFile = path.join(dir, `seed-${n}.json`);
    const categories = Array.from({ length: n }, (_, i) => ({
      name: `category-${i}`,
      description: `Generated category number ${i} for the growth bench`,
    }));
    fs.writeFileSync(seedFile, JSON.stringify({ categories }));
    // Above the default record cap (10,000): room for the creates of the measurement.
    const cap = String(n + 1_000);
    const server = await startOurs('ours', [
      '--keys',
      keysFile,
      '--seed',
      seedFile,
      '--quiet',
      '--max-records',
      cap,
    ]);
    try {
      results.push(await measureOne(server, n, baseline, seconds));
    } finally {
      await server.stop();
    }
  }
  agent.destroy();
  // Memory per category from the slope between sizes: RSS moves by a few MB on its own (GC timing), so a
  // difference under 4 MB says nothing and is left out.
  let prev = { stored: 0, rss: baseline };
  for (const r of results) {
    const delta = r.rssIdle - prev.rss;
    r.bytesPerCategory = delta > 4 * 1024 * 1024 ? delta / (r.stored - prev.stored) : null;
    prev = { stored: r.stored, rss: r.rssIdle };
  }
  return results;
}

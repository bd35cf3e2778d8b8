/**
 * Bounded memory (issue 13): the mock's peak RSS while it is pushed where memory used to grow without limit.
 *
 *   npm run memory [-- --addresses N --records N --streams N]
 *
 * One mock process (built, `--trust-proxy loopback`, so X-Forwarded-For names the client) is driven through:
 * 1. inspector streams that never read (`--streams`, default 30: more than the cap of 20), held open to the end;
 * 2. records up to the cap (`--records`, default 10,000, the default --max-records), each with the longest name
 *    and description the mock accepts, then one more create that must be refused with 409 record_limit;
 * 3. `--addresses` distinct client addresses (default 100,000), one request each, via X-Forwarded-For;
 * 4. five full lists of the stored records (each some 22 MB);
 * 5. a changing snapshot until the server has dropped every stalled reader (90 s at most).
 * RSS is sampled every 50 ms from /proc (Linux) and the kernel's peak (VmHWM) is read at the end.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { memoryOf, sampleRss } from './lib/proc';
import { startOurs } from './targets';
import { CATEGORIES } from './workloads';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '100000' },
    records: { type: 'string', default: '10000' },
    streams: { type: 'string', default: '30' },
  },
});
const ADDRESSES = Number(values.addresses);
const RECORDS = Number(values.records);
const STREAMS = Number(values.streams);
const KEY = 'memory-bench-enterprise-key';
const MB = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MB`;

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

function request(
  port: number,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: CATEGORIES, method, headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Run `count` jobs, `concurrency` at a time. */
async function pool(count: number, concurrency: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await job(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

interface Stalled {
  status: number;
  socket: net.Socket;
}

/** An inspector stream whose client reads the status line and then never reads again. */
function stalledStream(port: number): Promise<Stalled> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const out: Stalled = { status: 0, socket };
    socket.once('error', reject);
    socket.once('data', (chunk: Buffer) => {
      out.status = Number(chunk.toString('latin1').split(' ')[1]);
      socket.pause();
      resolve(out);
    });
    socket.write('GET /_mock/inspector/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  });
}

async function main(): Promise<void> {
  if (!memoryOf(process.pid)) throw new Error('this script reads RSS from /proc: run it on Linux');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-memory-'));
  const keysFile = path.join(dir, 'keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify({ keys: [{ key: KEY, plan: 'enterprise', perMinute: 1e9, perDay: 1e12 }] }),
  );
  const started = Date.now();
  // The cap follows --records, so a short run (`--records 1000`) reaches it too.
  const mock = await startOurs('memory', [
    '--keys',
    keysFile,
    '--trust-proxy',
    'loopback',
    '--max-records',
    String(RECORDS),
    '--quiet',
  ]);
  const rows: string[] = [];
  const phase = (name: string, peak: number): void => {
    const now = memoryOf(mock.pid)?.rss ?? 0;
    rows.push(`${name.padEnd(52)} RSS ${MB(now).padStart(7)}   peak so far ${MB(peak).padStart(7)}`);
    process.stdout.write(`${rows[rows.length - 1]}\n`);
  };
  const stop = sampleRss(mock.pid, 50);
  try {
    phase('started (seed: 3 categories)', memoryOf(mock.pid)?.hwm ?? 0);

    const streams = await Promise.all(Array.from({ length: STREAMS }, () => stalledStream(mock.port)));
    const open = streams.filter((s) => s.status === 200).length;
    phase(`${STREAMS} inspector streams that never read (${open} open)`, memoryOf(mock.pid)?.hwm ?? 0);

    const auth = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
    const description = 'd'.repeat(2000);
    let created = 0;
    await pool(RECORDS - 3, 16, async (i) => {
      const name = `${String(i).padStart(6, '0')}${'n'.repeat(194)}`;
      const res = await request(mock.port, 'POST', auth, JSON.stringify({ name, description }));
      if (res.status === 201) created++;
    });
    const over = await request(mock.port, 'POST', auth, JSON.stringify({ name: 'one too many' }));
    if (over.status !== 409) throw new Error(`a create beyond the cap answered ${over.status}, not 409`);
    phase(`${created + 3} records at the cap (next create: 409)`, memoryOf(mock.pid)?.hwm ?? 0);

    const statuses = new Map<number, number>();
    await pool(ADDRESSES, 32, async (i) => {
      const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      const res = await request(mock.port, 'GET', { 'X-Forwarded-For': address });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    });
    const answered = [...statuses].map(([s, n]) => `${n} x ${s}`).join(', ');
    phase(`${ADDRESSES} distinct client addresses (${answered})`, memoryOf(mock.pid)?.hwm ?? 0);

    let listBytes = 0;
    for (let i = 0; i < 5; i++) listBytes = (await request(mock.port, 'GET', auth)).bytes;
    phase(`5 full lists of ${MB(listBytes)} each`, memoryOf(mock.pid)?.hwm ?? 0);

    // Keep the snapshot changing (one request every 50 ms): a stalled reader's socket buffers fill (some MB in
    // the kernel), and once they stay full for 10 s the server drops it. Every 5 s, count the free stream slots
    // by opening streams; stop when every stalled reader is gone, or after 90 s.
    const changesFrom = Date.now();
    let dropped = 0;
    let probeAt = changesFrom + 5000;
    while (dropped < open && Date.now() < changesFrom + 90_000) {
      await request(mock.port, 'GET', { 'X-Forwarded-For': '192.0.2.1' });
      await new Promise((r) => setTimeout(r, 50));
      if (Date.now() < probeAt) continue;
      probeAt += 5000;
      const probes = await Promise.all(Array.from({ length: open }, () => stalledStream(mock.port)));
      dropped = probes.filter((p) => p.status === 200).length;
      for (const p of probes) p.socket.destroy();
      await new Promise((r) => setTimeout(r, 200)); // the probes' slots are freed
    }
    phase(
      `${((Date.now() - changesFrom) / 1000).toFixed(0)} s of changes later`,
      memoryOf(mock.pid)?.hwm ?? 0,
    );
    const sampled = stop();
    const hwm = memoryOf(mock.pid)?.hwm ?? 0;
    const peak = Math.max(sampled, hwm);
    process.stdout.write(
      [
        '',
        `inspector streams: ${open} opened, ${streams.length - open} refused (503), ${dropped} of the open ones dropped by the server for not reading`,
        `peak RSS of the mock: ${MB(peak)} (goal: under 200 MB) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
        '',
      ].join('\n'),
    );
    for (const s of streams) s.socket.destroy();
    if (peak >= 200 * 1024 * 1024) process.exitCode = 1;
  } finally {
    stop();
    agent.destroy();
    await mock.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`memory: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

/**
 * `npm run soak`: mixed traffic from many keys of every plan against one muted mock process on 127.0.0.1,
 * bounded in time (--seconds, default 60), count (--max-requests) and rate (--rate per second). Reports:
 * errors (anything but the expected status or a 429), RSS over time, categories created vs listed, and the
 * non-429 answers per key per minute window against the key's plan (never over). Exit code 1 on any failure.
 * --max-old-space MB runs the mock with a small old generation, so full GCs show what is really live.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { memoryOf } from './lib/proc';
import { startOurs } from './targets';
import { seededRandom } from '../conformance/send/check-context';

type Plan = 'free' | 'pro' | 'business' | 'enterprise';
const LIMITS: Record<Plan, { perMinute: number; perDay: number }> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: { perMinute: 3_000, perDay: 1_000_000 },
};
const MIX: Array<[Plan, number]> = [
  ['free', 8],
  ['pro', 5],
  ['business', 3],
  ['enterprise', 2],
];
const AUDIT_KEY = 'soak-audit-key';

interface Op {
  name: string;
  method: string;
  path: string;
  body?: string;
  expect: number;
  auth: boolean;
}
const OPS: Array<[Op, number]> = [
  [{ name: 'list', method: 'GET', path: '/v1/categories', expect: 200, auth: true }, 40],
  [{ name: 'create', method: 'POST', path: '/v1/categories', expect: 201, auth: true }, 25],
  [
    { name: 'invalid', method: 'POST', path: '/v1/categories', body: '{"name":7}', expect: 400, auth: true },
    10,
  ],
  [{ name: 'unknown', method: 'GET', path: '/v1/nowhere', expect: 404, auth: true }, 5],
  [{ name: 'method', method: 'DELETE', path: '/v1/categories', expect: 405, auth: true }, 5],
  [{ name: 'pet', method: 'GET', path: '/v1/pets/1', expect: 200, auth: true }, 5],
  [{ name: 'no-key', method: 'GET', path: '/v1/categories', expect: 401, auth: false }, 10],
];

/** One of `weighted`, drawn in proportion to its weight. */
function pick<T>(rand: () => number, weighted: Array<[T, number]>): T {
  const total = weighted.reduce((n, [, w]) => n + w, 0);
  let r = rand() * total;
  for (const [v, w] of weighted) if ((r -= w) < 0) return v;
  return (weighted[weighted.length - 1] as [T, number])[0];
}

interface Key {
  key: string;
  plan: Plan;
}

function makeKeys(): Key[] {
  const keys: Key[] = [];
  for (const [plan, n] of MIX) for (let i = 0; i < n; i++) keys.push({ key: `soak-${plan}-${i}`, plan });
  return keys;
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string' },
      rate: { type: 'string' },
      connections: { type: 'string' },
      'max-requests': { type: 'string' },
      seed: { type: 'string' },
      'max-old-space': { type: 'string' },
    },
  });
  const seconds = Number(values.seconds ?? 60);
  const rate = Number(values.rate ?? 2000);
  const connections = Number(values.connections ?? 16);
  const maxRequests = Number(values['max-requests'] ?? 300_000);
  const seed = Number(values.seed ?? Date.now() % 1_000_000);
  const rand = seededRandom(seed);

  const keys = makeKeys();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-soak-'));
  const keysFile = path.join(dir, 'keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify({
      keys: [
        ...keys.map((k) =>
          k.plan === 'enterprise'
            ? { key: k.key, plan: k.plan, ...LIMITS.enterprise }
            : { key: k.key, plan: k.plan },
        ),
        { key: AUDIT_KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000_000 },
      ],
    }),
  );
  // --trace-gc: the heap still live after each full GC, which tells a leak from a heap that merely grew.
  const gcLog = path.join(dir, 'mock-gc.log');
  // --max-old-space MB: a small old generation forces full GCs during the run, so a leak would show (or crash).
  const oldSpace = values['max-old-space'] ? [`--max-old-space-size=${values['max-old-space']}`] : [];
  const server = await startOurs('ours', ['--keys', keysFile, '--seed', 'none', '--quiet'], gcLog, [
    '--trace-gc',
    ...oldSpace,
  ]);
  const base = `http://127.0.0.1:${server.port}`;
  const line = (s: string) => process.stdout.write(`${s}\n`);
  line(
    `soak: ${seconds} s, ≤ ${rate} req/s, ${connections} connections, ≤ ${maxRequests} requests, ${keys.length} keys (${MIX.map(([p, n]) => `${n} ${p}`).join(', ')}), seed ${seed}, load average ${os.loadavg()[0]?.toFixed(2)}`,
  );
  // Let the background Prism load finish so the RSS baseline is the steady one.
  await fetch(`${base}/v1/pets/1`, { headers: { Authorization: `Bearer ${AUDIT_KEY}` } }).then((r) =>
    r.arrayBuffer(),
  );
  const rss: Array<{ t: number; rss: number }> = [{ t: 0, rss: memoryOf(server.pid)?.rss ?? 0 }];

  const started = performance.now();
  const trafficStartMs = started - server.spawnedAt;
  const deadline = started + seconds * 1000;
  const statusCount = new Map<string, number>();
  const errors: string[] = [];
  const admitted = new Map<string, number>(); // `${subject}|${minute}` -> non-429 answers
  const created = new Set<number>();
  let sent = 0;
  const sampler = setInterval(
    () => rss.push({ t: (performance.now() - started) / 1000, rss: memoryOf(server.pid)?.rss ?? 0 }),
    5000,
  );

  async function worker(): Promise<void> {
    for (;;) {
      const i = sent++;
      if (i >= maxRequests) return;
      const due = started + (i / rate) * 1000;
      const now = performance.now();
      if (now >= deadline) return;
      if (due > now) await new Promise((r) => setTimeout(r, due - now));
      const op = pick(rand, OPS);
      const key = keys[Math.floor(rand() * keys.length)] as Key;
      const headers: Record<string, string> = {};
      if (op.auth) headers.Authorization = `Bearer ${key.key}`;
      const body =
        op.name === 'create' ? JSON.stringify({ name: `soak-${i}`, description: 'soak' }) : op.body;
      if (body) headers['Content-Type'] = 'application/json';
      try {
        const res = await fetch(`${base}${op.path}`, { method: op.method, headers, body });
        const text = await res.text();
        statusCount.set(`${op.name} ${res.status}`, (statusCount.get(`${op.name} ${res.status}`) ?? 0) + 1);
        if (res.status !== op.expect && res.status !== 429) {
          errors.push(`${op.method} ${op.path} (${op.name}) -> ${res.status} ${text.slice(0, 120)}`);
        }
        if (res.status !== 429) {
          // The mock's windows are aligned to the epoch minute; Date is the server's clock at answer time.
          const minute = Math.floor(Date.parse(res.headers.get('date') ?? '') / 60_000);
          const subject = op.auth ? key.key : 'anonymous@127.0.0.1';
          admitted.set(`${subject}|${minute}`, (admitted.get(`${subject}|${minute}`) ?? 0) + 1);
        }
        if (res.status === 201) created.add((JSON.parse(text) as { id: number }).id);
      } catch (err) {
        errors.push(`${op.method} ${op.path} (${op.name}) -> ${(err as Error).message}`);
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, worker));
  clearInterval(sampler);
  const elapsed = (performance.now() - started) / 1000;
  rss.push({ t: elapsed, rss: memoryOf(server.pid)?.rss ?? 0 });

  // Nothing lost: every created id is listed once, and the list holds nothing else (seed: none).
  const listed = (await (
    await fetch(`${base}/v1/categories`, { headers: { Authorization: `Bearer ${AUDIT_KEY}` } })
  ).json()) as Array<{ id: number }>;
  const listedIds = new Set(listed.map((c) => c.id));
  const missing = [...created].filter((id) => !listedIds.has(id));
  const duplicates = listed.length - listedIds.size;
  await server.stop();
  // Heap after each GC (`[pid]  12345 ms: Scavenge 50.1 (60.2) -> 45.3 (61.0) MB`): an upper bound of the live
  // heap (old-generation garbage is only dropped by a full Mark-Compact).
  const gcs = [
    ...fs.readFileSync(gcLog, 'utf8').matchAll(/ (\d+) ms: (Scavenge|Mark-Compact)[^\n]*?-> ([\d.]+) \(/g),
  ].map((m) => ({ ms: Number(m[1]), kind: m[2] ?? '', after: Number(m[3]) }));
  const during = gcs.filter((g) => g.ms >= trafficStartMs);
  const full = during.filter((g) => g.kind === 'Mark-Compact').map((g) => g.after.toFixed(1));
  const fullGcs = full.length > 8 ? [...full.slice(0, 4), '…', ...full.slice(-4)] : full;
  fs.rmSync(dir, { recursive: true, force: true });

  // Never over: non-429 answers per subject per minute window against its plan's per-minute limit.
  const over: string[] = [];
  const perPlanMax = new Map<string, number>();
  for (const [k, n] of admitted) {
    const [subject = ''] = k.split('|');
    const plan: Plan = keys.find((x) => x.key === subject)?.plan ?? 'free'; // anonymous: the free plan's numbers
    const label = subject.startsWith('anonymous') ? 'anonymous' : plan;
    perPlanMax.set(label, Math.max(perPlanMax.get(label) ?? 0, n));
    if (n > LIMITS[plan].perMinute)
      over.push(`${subject} window ${k.split('|')[1]}: ${n} > ${LIMITS[plan].perMinute}`);
  }

  const total = [...statusCount.values()].reduce((a, b) => a + b, 0);
  const firstRss = rss[0]?.rss ?? 0;
  // Levelling off: RSS growth over the last third of the run, against the categories it stored meanwhile.
  const from = [...rss].reverse().find((x) => x.t <= elapsed * (2 / 3)) ?? rss[0];
  const lastThirdGrowth = (rss[rss.length - 1]?.rss ?? 0) - (from?.rss ?? 0);
  line(`requests: ${total} in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)}/s)`);
  line(
    `statuses: ${[...statusCount]
      .sort()
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ')}`,
  );
  line(
    `errors (not the expected status and not 429): ${errors.length}${errors.length ? `, e.g. ${errors.slice(0, 5).join(' | ')}` : ''}`,
  );
  line(
    `RSS: start ${mb(firstRss)}, end ${mb(rss[rss.length - 1]?.rss ?? 0)}, samples ${rss.map((s) => `${s.t.toFixed(0)}s ${mb(s.rss)}`).join(', ')}; growth over the last third ${mb(lastThirdGrowth)}`,
  );
  line(
    `heap after GC (--trace-gc): ${during[0]?.after.toFixed(1) ?? '?'} MB at the start of traffic, ${during[during.length - 1]?.after.toFixed(1) ?? '?'} MB at the end; ${during.length} GCs, full GCs during traffic: ${full.length ? `${full.length}, live after each ${fullGcs.join(', ')} MB` : 'none'}`,
  );
  line(
    `categories: created ${created.size}, listed ${listed.length}, created but not listed ${missing.length}, duplicate ids ${duplicates}`,
  );
  line(
    `rate limits: most non-429 answers in one minute window, by plan: ${[...perPlanMax]
      .map(([p, n]) => `${p} ${n}/${LIMITS[p === 'anonymous' ? 'free' : (p as Plan)].perMinute}`)
      .join(
        ', ',
      )}; windows over the plan: ${over.length}${over.length ? ` (${over.slice(0, 5).join('; ')})` : ''}`,
  );
  const ok =
    errors.length === 0 &&
    missing.length === 0 &&
    duplicates === 0 &&
    listed.length === created.size &&
    over.length === 0;
  line(`soak: ${ok ? 'PASS' : 'FAIL'}`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`soak: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

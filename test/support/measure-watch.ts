/**
 * `node --expose-gc -r test/support/ts-register.js test/support/measure-watch.ts DIR`: a mock watching a
 * 2,000-operation document in DIR, served, then reloaded five times (each version served); prints
 * `{ "oneMb": …, "afterMb": … }`, the retained heap after the first load and after the fifth reload. A fresh
 * process measures the mock alone: a test worker's heap also holds (and releases) what earlier test files left.
 */
import fs from 'node:fs';
import path from 'node:path';
import { syntheticDocument } from '../../bench/lib/synthetic-document';
import { createMockServer } from '../../mock/node/index';

const KEY = 'watch-large-key-0123456789';

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const heapMb = (): number => {
    gc();
    return process.memoryUsage().heapUsed / 1e6;
  };
  const file = path.join(process.argv[2] ?? '.', 'large.json');
  const write = (version: string): void => {
    const doc = syntheticDocument(2000);
    doc.info.version = version;
    fs.writeFileSync(file, JSON.stringify(doc));
  };
  write('1.0.0');
  const before = heapMb();
  const mock = await createMockServer({
    specPath: file,
    keys: [{ key: KEY, plan: 'pro' }],
    watch: true,
    watchIntervalMs: 60_000, // reloads are asked for below, not polled
    quiet: true,
  });
  const base = await mock.listen(0, '127.0.0.1');
  const use = async (): Promise<void> => {
    // Served and validated: the reference documents and a few validators exist for this version.
    const auth = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
    const made = await fetch(`${base}/r42`, { method: 'POST', headers: auth, body: '{"name":"x"}' });
    if (made.status !== 201) throw new Error(`create answered ${made.status}`);
    const doc = await fetch(`${new URL(base).origin}/openapi.json`);
    if (doc.status !== 200) throw new Error(`openapi.json answered ${doc.status}`);
  };
  await use();
  const oneMb = heapMb() - before;
  for (let i = 1; i <= 5; i++) {
    write(`1.0.${i}`);
    const outcome = await mock.reload();
    if (!outcome.ok) throw new Error(`reload ${i} failed`);
    await use();
  }
  const afterMb = heapMb() - before;
  await mock.close();
  process.stdout.write(`${JSON.stringify({ oneMb, afterMb })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});

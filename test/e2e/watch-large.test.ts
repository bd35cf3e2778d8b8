/**
 * Issue 22: a --watch reload of a large document releases the old one: after several reloads, each with a
 * changed document that has been served, the heap holds about one document, not one per reload.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { syntheticDocument } from '../../bench/lib/synthetic-document';
import { createMockServer, type MockServer } from '../../mock/node/index';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;
const heapMb = () => {
  collect();
  return process.memoryUsage().heapUsed / 1e6;
};

const KEY = 'watch-large-key-0123456789';
let dir: string;
let mock: MockServer | undefined;
afterAll(async () => {
  await mock?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('holds one document after five reloads of a 2,000-operation document, not six', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'watch-large-'));
  const file = path.join(dir, 'large.json');
  const write = (version: string) => {
    const doc = syntheticDocument(2000);
    doc.info.version = version;
    fs.writeFileSync(file, JSON.stringify(doc));
  };
  write('1.0.0');
  process.env.SPEC_VALIDATION_CACHE = 'off';
  const before = heapMb();
  mock = await createMockServer({
    specPath: file,
    keys: [{ key: KEY, plan: 'pro' }],
    watch: true,
    watchIntervalMs: 60_000, // reloads are asked for below, not polled
    quiet: true,
  });
  const base = await mock.listen(0, '127.0.0.1');
  const use = async () => {
    // Served and validated: the reference documents and a few validators exist for this version.
    const auth = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
    const made = await fetch(`${base}/r42`, { method: 'POST', headers: auth, body: '{"name":"x"}' });
    expect(made.status).toBe(201);
    expect((await fetch(`${new URL(base).origin}/openapi.json`)).status).toBe(200);
  };
  await use();
  const one = heapMb() - before;
  for (let i = 1; i <= 5; i++) {
    write(`1.0.${i}`);
    const outcome = await mock.reload();
    expect(outcome.ok).toBe(true);
    await use();
  }
  const after = heapMb() - before;
  delete process.env.SPEC_VALIDATION_CACHE;
  // Six documents held would be about six times `one`; released ones leave at most a fraction of one more.
  expect(after).toBeLessThan(one * 2);
}, 120_000);

/**
 * --watch: edit copies of the spec and the keys file while the mock runs; the change is served without a
 * restart and stored categories stay; a broken edit is refused with the reason printed, the old version serving.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_KEYS_FILE, DEFAULT_SEED_FILE } from '../../mock/node/config';
import { createMockServer, type MockServer } from '../../mock/node';
import { createLogger } from '../../mock/core/log';
import { DEFAULT_SPEC_PATH } from '../../spec/paths';

/**
 * Poll `check` until it returns true (the watcher looks at the files every 100 ms here). Polls are requests the
 * mock counts: the page polls carry the enterprise demo key, so the anonymous per-address budget is not spent.
 */
async function eventually(check: () => Promise<boolean> | boolean, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

describe('--watch reloads the spec, keys and seed files', () => {
  let dir: string;
  let mock: MockServer;
  let base: string;
  let origin: string;
  let printed = '';
  const files = { spec: '', keys: '', seed: '' };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-watch-'));
    files.spec = path.join(dir, 'openapi.yaml');
    files.keys = path.join(dir, 'keys.json');
    files.seed = path.join(dir, 'seed.json');
    fs.copyFileSync(DEFAULT_SPEC_PATH, files.spec);
    fs.copyFileSync(DEFAULT_KEYS_FILE, files.keys);
    fs.copyFileSync(DEFAULT_SEED_FILE, files.seed);
    mock = await createMockServer({
      allowShortKeys: true,
      specPath: files.spec,
      keysFile: files.keys,
      seedFile: files.seed,
      watch: true,
      watchIntervalMs: 100,
      log: createLogger({ write: (s: string) => (printed += s) }, true),
    });
    base = await mock.listen(0);
    origin = new URL(base).origin;
  });
  afterAll(async () => {
    await mock?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const list = (key: string) => fetch(`${base}/categories`, { headers: { Authorization: `Bearer ${key}` } });
  const servedVersion = async () =>
    (
      (await (
        await fetch(`${origin}/openapi.json`, { headers: { Authorization: 'Bearer ent-demo-key' } })
      ).json()) as { info: { version: string } }
    ).info.version;
  const edit = (file: string, from: string | RegExp, to: string) =>
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(from, to));
  const refusals = () => printed.split('\n').filter((l) => l.includes('reload refused'));

  it('serves an edited spec and a new key without a restart, keeping stored categories', async () => {
    const created = await fetch(`${base}/categories`, {
      method: 'POST',
      headers: { Authorization: 'Bearer free-demo-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'kept-across-reloads' }),
    });
    expect(created.status).toBe(201);
    expect(await servedVersion()).toBe('1.0.0');
    expect((await list('watch-new-key')).status).toBe(401);

    edit(files.spec, /^ {2}version: 1\.0\.0$/m, '  version: 1.0.1-watched');
    await eventually(async () => (await servedVersion()) === '1.0.1-watched', 'the edited spec served');
    expect(mock.deps.spec.document.info.version).toBe('1.0.1-watched');

    edit(files.keys, '"keys": [', '"keys": [\n    { "key": "watch-new-key", "plan": "pro" },');
    await eventually(async () => (await list('watch-new-key')).status === 200, 'the new key accepted');

    const names = ((await (await list('free-demo-key')).json()) as Array<{ name: string }>).map(
      (c) => c.name,
    );
    expect(names).toContain('kept-across-reloads');
    expect(printed).toMatch(/"msg":"reloaded spec, keys and seed"/);
  });

  it('refuses a broken spec with the reason printed; the last good version keeps serving', async () => {
    const good = fs.readFileSync(files.spec, 'utf8');
    fs.writeFileSync(files.spec, good.replace('openapi: 3.1.0', 'openapi: 3.1.0\npaths: [oops'));
    await eventually(() => refusals().length >= 1, 'the broken spec refused');
    const line = JSON.parse(refusals()[0] ?? '{}') as { level: string; reason: string };
    expect(line.level).toBe('error');
    expect(line.reason).toMatch(/yaml|YAML|paths|flow/i);
    expect(await servedVersion()).toBe('1.0.1-watched');
    expect((await list('watch-new-key')).status).toBe(200);
    fs.writeFileSync(files.spec, good);
    await eventually(() => printed.split('\n').filter((l) => l.includes('"reloaded')).length >= 3, 'fixed');
  });

  it('refuses a broken keys file by name; the old keys keep working', async () => {
    const before = refusals().length;
    edit(files.keys, '"plan": "pro" }', '"plan": "platinum" }');
    await eventually(() => refusals().length > before, 'the broken keys file refused');
    expect(refusals().at(-1)).toMatch(/keys file .*keys\/0\/plan must be equal to one of the allowed values/);
    expect(refusals().at(-1)).not.toMatch(/watch-new-key/);
    expect((await list('watch-new-key')).status).toBe(200);
    expect(await servedVersion()).toBe('1.0.1-watched');
    edit(files.keys, '"plan": "platinum" }', '"plan": "pro" }');
    await eventually(() => printed.split('\n').filter((l) => l.includes('"reloaded')).length >= 4, 'fixed');
  });

  it('refuses a seed file the spec rejects, and never re-seeds stored categories', async () => {
    const before = refusals().length;
    fs.writeFileSync(files.seed, JSON.stringify({ categories: [{ description: 'no name' }] }));
    await eventually(() => refusals().length > before, 'the broken seed refused');
    expect(refusals().at(-1)).toMatch(/seed file .*categories\/0/);
    const names = ((await (await list('free-demo-key')).json()) as Array<{ name: string }>).map(
      (c) => c.name,
    );
    expect(names).toContain('kept-across-reloads');
  });
});

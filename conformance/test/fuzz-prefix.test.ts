/**
 * Issue 31: "a fuzz or replay run names what it creates with the run's prefix, as the docs promise"
 * (docs/check-a-server.md, Data). The CLI spawned against a listening mock (127.0.0.1, port 0), then the mock's
 * records listed: every record a `--fuzz` or `--replay` run created carries the prefix it printed at start (the
 * pet store's categories have no delete, so they stay to be looked at), and on a document with deletes the
 * clean-up leaves nothing behind.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMockServer, type MockServer } from '../../mock/node';

const ROOT = path.join(__dirname, '..', '..');
const REGISTER = path.join(__dirname, '..', '..', 'test', 'support', 'ts-register.js');
const CLI = path.join(ROOT, 'conformance', 'cli.ts');
const FULL = path.join(ROOT, 'fixtures', 'specs', 'petstore-full.yaml');
const KEY = 'fuzz-prefix-key-0123456789';

function runCli(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', REGISTER, CLI, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, CONFORMANCE_API_KEY: KEY, CONFORMANCE_QUOTA_KEY: '' },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 120_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}\n${stderr}` }),
    );
  });
}

const prefixOf = (out: string): string => {
  const found = /data prefix (conformance-[0-9a-z]+)/.exec(out)?.[1];
  if (!found) throw new Error(`no data prefix printed:\n${out.slice(0, 2000)}`);
  return found;
};

describe('fuzz and replay name what they create with the run prefix', () => {
  let mock: MockServer;
  let url: string;
  let failures: string;
  beforeEach(() => {
    failures = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-prefix-'));
  });
  afterEach(async () => {
    await mock.close();
    fs.rmSync(failures, { recursive: true, force: true });
  });

  async function start(specPath?: string): Promise<void> {
    mock = await createMockServer({
      ...(specPath ? { specPath } : {}),
      keys: [{ key: KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 }],
      seedFile: null,
      quiet: true,
    });
    url = await mock.listen(0, '127.0.0.1');
  }

  const state = async (): Promise<Record<string, Array<Record<string, unknown>>>> => {
    const res = await fetch(`${new URL(url).origin}/_mock/state`);
    const body = (await res.json()) as Record<string, unknown>;
    delete body.keys;
    return body as Record<string, Array<Record<string, unknown>>>;
  };

  it('--fuzz on the pet store: every category created (none deleted) carries the prefix in its name and description', async () => {
    await start();
    const run = await runCli([
      '--target',
      url,
      '--fuzz',
      '--seed',
      '11',
      '--max-examples',
      '12',
      '--failures-dir',
      failures,
      '--scenarios',
      'none',
    ]);
    const prefix = prefixOf(run.out);
    const categories = (await state()).categories ?? [];
    // The documented example (`rabbit`), the boundaries and the random bodies were all accepted and stored.
    expect(categories.length).toBeGreaterThan(5);
    const unnamed = categories.filter(
      (c) =>
        !String(c.name).startsWith(prefix) ||
        (c.description !== undefined && !String(c.description).startsWith(prefix)),
    );
    expect(unnamed).toEqual([]);
    expect(categories.some((c) => /rabbit$/.test(String(c.name)))).toBe(true);
  }, 150_000);

  it('--replay of a failure saved by an earlier run creates its record under this run prefix', async () => {
    await start();
    const old = 'conformance-00000000';
    fs.writeFileSync(
      path.join(failures, 'createCategory-saved.json'),
      JSON.stringify({
        rule: 'fuzz.createCategory.random',
        operationId: 'createCategory',
        method: 'POST',
        template: '/categories',
        body: { name: `${old}-fuzz-3-name-otter-17`, description: 'x' },
        expect: 'accept',
        statuses: [201],
        label: 'random 1',
        seed: 3,
        curl: 'curl …',
        found: '2026-01-01T00:00:00.000Z',
      }),
    );
    const run = await runCli(['--target', url, '--replay', '--failures-dir', failures]);
    const prefix = prefixOf(run.out);
    expect(run.code).toBe(0);
    const categories = (await state()).categories ?? [];
    expect(categories.map((c) => [c.name, c.description])).toEqual([
      [`${prefix}-fuzz-3-name-otter-17`, `${prefix}-x`],
    ]);
  }, 150_000);

  it('--fuzz on a document with deletes: the clean-up removes everything the run created', async () => {
    await start(FULL);
    const run = await runCli([
      '--target',
      url,
      '--spec',
      FULL,
      '--fuzz',
      '--seed',
      '11',
      '--max-examples',
      '8',
      '--failures-dir',
      failures,
      '--scenarios',
      'none',
    ]);
    prefixOf(run.out);
    const left = await state();
    // Categories here have a delete too: nothing stays.
    expect(Object.fromEntries(Object.entries(left).map(([k, v]) => [k, v.length]))).toEqual({
      categories: 0,
      pets: 0,
      orders: 0,
    });
  }, 150_000);
});

/** The CI recipe of docs/judge-traffic.md, run as written: proxy in front of "staging", a suite, stop, reports. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createMockServer } from '../../mock/node/index';
import { KEYS } from '../support/mock-harness';

const ROOT = path.join(__dirname, '..', '..');
const RECIPE = path.join(ROOT, 'examples', 'ci', 'judge-traffic.sh');

/** Runs the recipe in a fresh folder; resolves to its exit code and output. */
function runRecipe(staging: string, port: number): Promise<{ code: number; out: string; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recipe-'));
  const env = {
    ...process.env,
    STAGING_URL: staging,
    SPEC: path.join(ROOT, 'spec', 'openapi.yaml'),
    PETSTORE_MOCK: `${process.execPath} --import ${pathToFileURL(require.resolve('tsx')).href} ${path.join(ROOT, 'proxy', 'main.ts')}`,
    PROXY_PORT: String(port),
    SUITE: 'curl -fs -H "Authorization: Bearer pro-key" "$API_BASE_URL/categories" >/dev/null',
  };
  return new Promise((resolve) => {
    execFile('bash', [RECIPE], { cwd: dir, env }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr, dir }),
    );
  });
}

/** A free port on 127.0.0.1 (the recipe's proxy listens on it). */
async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

it('keeps the JUnit and HTML reports and passes in front of a faithful server', async () => {
  const mock = await createMockServer({ keys: KEYS });
  try {
    const { code, out, dir } = await runRecipe(await mock.listen(0), await freePort());
    expect(out).toContain('proxy exit 0');
    expect(code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'reports', 'contract.xml'), 'utf8')).toContain('listCategories');
    expect(fs.readFileSync(path.join(dir, 'reports', 'contract.html'), 'utf8')).toContain('<html');
  } finally {
    await mock.close();
  }
}, 60_000);

it('fails the job when the server breaks the contract', async () => {
  const bad = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
  );
  await new Promise<void>((r) => bad.listen(0, '127.0.0.1', r));
  try {
    const { code, out } = await runRecipe(
      `http://127.0.0.1:${(bad.address() as AddressInfo).port}/v1`,
      await freePort(),
    );
    expect(out).toContain('proxy exit 1');
    expect(code).not.toBe(0);
  } finally {
    bad.close();
  }
}, 60_000);

/** The CI recipe of docs/judge-traffic.md, run as written: proxy in front of "staging", a suite, stop, reports. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createMockServer } from '../../mock/node/index';
import { KEYS } from '../support/mock-harness';

const ROOT = path.join(__dirname, '..', '..');
const RECIPE = path.join(ROOT, 'examples', 'ci', 'judge-traffic.sh');

/**
 * A folder where `npx petstore-mock` resolves to this checkout's command, as in a project that installed the
 * package: npm exec runs `node_modules/.bin/petstore-mock` under `sh -c`, the same process tree as an install.
 * The bin is the real one (bin/commands.js dispatches --proxy), loading the TypeScript sources through tsx
 * instead of a build.
 */
function projectFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recipe-'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"suite","version":"1.0.0","private":true}\n');
  const bin = path.join(dir, 'node_modules', '.bin', 'petstore-mock');
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  const tsx = require.resolve('tsx/cjs/api');
  fs.writeFileSync(
    bin,
    `#!${process.execPath}
require(${JSON.stringify(tsx)}).register();
const { startMockCommand } = require(${JSON.stringify(path.join(ROOT, 'bin', 'commands.js'))});
startMockCommand(process.argv.slice(2), (rel) => require('node:path').join(${JSON.stringify(ROOT)}, rel.replace(/\\.js$/, '.ts')));
`,
    { mode: 0o755 },
  );
  return dir;
}

/** Runs the recipe in a fresh project folder, launching `npx petstore-mock` as written; its exit code and output. */
function runRecipe(
  staging: string,
  port: number,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; dir: string }> {
  const dir = projectFolder();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    STAGING_URL: staging,
    SPEC: path.join(ROOT, 'spec', 'openapi.yaml'),
    PROXY_PORT: String(port),
    SUITE: 'curl -fs -H "Authorization: Bearer pro-key" "$API_BASE_URL/categories" >/dev/null',
    ...extraEnv,
  };
  delete env.PETSTORE_MOCK;
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  Object.assign(env, extraEnv);
  return new Promise((resolve) => {
    execFile('bash', [RECIPE], { cwd: dir, env }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr, dir }),
    );
  });
}

/** Whether anything still listens on `port` (an orphaned proxy would). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
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

it('keeps the JUnit and HTML reports and passes in front of a faithful server, negative requests apart', async () => {
  const mock = await createMockServer({ keys: KEYS });
  try {
    const port = await freePort();
    // The suite's own deliberate negative requests (no key, a bad body): the client's, not the server's fault.
    const suite = [
      'curl -fs -H "Authorization: Bearer pro-key" "$API_BASE_URL/categories" >/dev/null',
      'curl -s "$API_BASE_URL/categories" >/dev/null',
      `curl -s -X POST -H "Authorization: Bearer pro-key" -H "Content-Type: application/json" -d '{"name":7}' "$API_BASE_URL/categories" >/dev/null`,
    ].join(' && ');
    const { code, out, dir } = await runRecipe(await mock.listen(0), port, { SUITE: suite });
    expect(out).toContain('proxy exit 0');
    expect(out).toMatch(/received SIGTERM: 3 exchanges, 0 response-side violations.*exit 0/);
    expect(code).toBe(0);
    expect(await listening(port)).toBe(false);
    const xml = fs.readFileSync(path.join(dir, 'reports', 'contract.xml'), 'utf8');
    expect(xml).toContain('listCategories');
    // Every suite of the JUnit file agrees with the exit code: no failure; the refused requests in their own suite.
    expect([...xml.matchAll(/failures="(\d+)"/g)].map((m) => m[1])).toEqual(['0', '0', '0']);
    expect(xml).toMatch(/<testsuite name="client requests the document refuses[^"]*" tests="2" failures="0"/);
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'reports', 'contract.json'), 'utf8')) as {
      summary: { fail: number };
      clientRequests: Array<{ id: string }>;
    };
    expect(json.summary.fail).toBe(0);
    expect(json.clientRequests.map((r) => r.id).sort()).toEqual([
      'request.body createCategory',
      'request.credentials listCategories',
    ]);
    const html = fs.readFileSync(path.join(dir, 'reports', 'contract.html'), 'utf8');
    expect(html).toContain('<html');
    expect(html).toContain('Every contract rule holds');
    expect(html).toContain('Client requests the document refuses');
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

it('counts an unreachable upstream as a finding: exit 1, not a green gate over 502s', async () => {
  const { code, out, dir } = await runRecipe(`http://127.0.0.1:${await freePort()}/v1`, await freePort(), {
    SUITE: 'for i in 1 2 3; do curl -s "$API_BASE_URL/categories" >/dev/null; done',
  });
  expect(out).toContain('proxy exit 1');
  expect(code).not.toBe(0);
  const json = JSON.parse(fs.readFileSync(path.join(dir, 'reports', 'contract.json'), 'utf8')) as {
    rules: Array<{ id: string; status: string }>;
  };
  expect(json.rules.some((r) => r.id.startsWith('upstream.reachable') && r.status === 'fail')).toBe(true);
}, 60_000);

it("under npx's default sh -c, a SIGTERM to npx still stops the proxy and writes the reports (no orphan)", async () => {
  const mock = await createMockServer({ keys: KEYS });
  try {
    const port = await freePort();
    const { out, dir } = await runRecipe(await mock.listen(0), port, { npm_config_script_shell: '/bin/sh' });
    // npx itself died with the signal (143); the proxy noticed its parent gone and stopped gracefully.
    expect(out).toContain('proxy exit 143');
    const deadline = Date.now() + 5000;
    while (!fs.existsSync(path.join(dir, 'reports', 'contract.xml')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(fs.readFileSync(path.join(dir, 'reports', 'contract.xml'), 'utf8')).toContain('listCategories');
    while ((await listening(port)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await listening(port)).toBe(false);
  } finally {
    await mock.close();
  }
}, 60_000);

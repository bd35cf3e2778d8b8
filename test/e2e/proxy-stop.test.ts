/**
 * The proxy's graceful stop (issue 31): SIGTERM stops accepting, lets a request in flight finish, writes the
 * reports, exits with the gate's code; past --drain-ms the rest is cut; a second signal stops at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startFaultyUpstream, type FaultyUpstream } from '../support/faulty-upstream';

const ROOT = path.join(__dirname, '..', '..');
let upstream: FaultyUpstream;
beforeAll(async () => {
  upstream = await startFaultyUpstream();
});
afterAll(() => upstream?.close());

interface Running {
  child: ChildProcess;
  base: string;
  port: number;
  exited: Promise<number | null>;
  output: () => string;
}

async function start(args: string[]): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'proxy/main.ts', '--proxy', upstream.url, '--port', '0', ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_command: undefined } },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  let m: RegExpExecArray | null;
  while (!(m = /listening on (http:\/\/127\.0\.0\.1:(\d+)\/v1)/.exec(out))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`proxy did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, base: m[1] as string, port: Number(m[2]), exited, output: () => out };
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });

const settle = (p: Promise<Response>) =>
  p.then(
    (r) => r.status,
    () => 'cut' as const,
  );

it('SIGTERM: no new connections, the request in flight finishes, the reports are written, the gate decides the code', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proxy-stop-'));
  const json = path.join(dir, 'contract.json');
  const proxy = await start(['--report', `json=${json}`, '--fail-on-violations']);
  const slow = settle(fetch(`${proxy.base}/slow`));
  await new Promise((r) => setTimeout(r, 200));
  proxy.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 200));
  expect(await accepts(proxy.port)).toBe(false);
  expect(await slow).toBe(200);
  // /v1/slow is no documented path: its 200 is a response-side finding (response.accepted-invalid), so exit 1.
  expect(await proxy.exited).toBe(1);
  expect(proxy.output()).toMatch(/received SIGTERM: 1 exchanges, [1-9]\d* response-side violations.*exit 1/);
  const report = JSON.parse(fs.readFileSync(json, 'utf8')) as {
    rules: Array<{ id: string; status: string }>;
  };
  expect(report.rules.some((r) => r.id.startsWith('response.accepted-invalid') && r.status === 'fail')).toBe(
    true,
  );
}, 40_000);

it('a gate asked for with nothing judged is exit 2', async () => {
  const proxy = await start(['--fail-on-violations']);
  proxy.child.kill('SIGTERM');
  expect(await proxy.exited).toBe(2);
}, 40_000);

it('--drain-ms: a request still in flight is cut at the limit; a second signal stops at once', async () => {
  const proxy = await start(['--drain-ms', '500']);
  const silent = settle(fetch(`${proxy.base}/silent`));
  await new Promise((r) => setTimeout(r, 200));
  const t0 = Date.now();
  proxy.child.kill('SIGTERM');
  expect(await proxy.exited).toBe(0);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
  expect(await silent).toBe('cut');

  const again = await start([]);
  const stuck = settle(fetch(`${again.base}/silent`));
  await new Promise((r) => setTimeout(r, 200));
  const t1 = Date.now();
  again.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 200));
  again.child.kill('SIGINT');
  expect(await again.exited).toBe(0);
  expect(Date.now() - t1).toBeLessThan(3000);
  expect(await stuck).toBe('cut');
  expect(again.output()).toContain('received SIGINT again: stopping now');
}, 40_000);

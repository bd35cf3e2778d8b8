/**
 * Issue 41: stopping the proxy that npx / `npm exec` started. `kill -TERM <npm>; wait <npm>` must find the
 * reports on disk: with bash as npm's script shell the proxy gets the signal itself and npm exits with the
 * gate's code; with sh (which dies on the signal and passes nothing on) the proxy says so at start, stops when it
 * sees its parent gone, and its stop line names that parent.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFaultyUpstream, type FaultyUpstream } from '../support/faulty-upstream';

const ROOT = path.join(__dirname, '..', '..');
let upstream: FaultyUpstream;
let dir: string;
beforeAll(async () => {
  upstream = await startFaultyUpstream();
  // A project with the proxy as its petstore-mock bin (the sources, run by tsx: no build needed).
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proxy-npm-'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"npm-stop","version":"1.0.0","private":true}');
  fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  const loader = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  const bin = path.join(dir, 'node_modules', '.bin', 'petstore-mock');
  const main = path.join(ROOT, 'proxy', 'main.ts');
  fs.writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" --import "file://${loader}" "${main}" "$@"\n`);
  fs.chmodSync(bin, 0o755);
});
afterAll(async () => {
  await upstream?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `npm exec petstore-mock --proxy …` with `shell` as npm's script shell; SIGTERM to npm once it listens. */
async function stopUnderNpm(shell: string): Promise<{ code: number | null; onDisk: boolean; out: string }> {
  const har = path.join(dir, `${path.basename(shell)}.har`);
  const args = [
    'exec',
    '--',
    'petstore-mock',
    '--proxy',
    upstream.url,
    '--port',
    '0',
    '--report',
    `har=${har}`,
  ];
  const npm = spawn('npm', args, {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_script_shell: shell, npm_config_update_notifier: 'false' },
  });
  let out = '';
  npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
  npm.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 60_000;
  while (!/listening on/.test(out)) {
    if (Date.now() > deadline || npm.exitCode !== null) throw new Error(`the proxy did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  npm.kill('SIGTERM');
  // What `wait` sees: the moment npm exits, is the report there?
  const { code, onDisk } = await new Promise<{ code: number | null; onDisk: boolean }>((resolve) =>
    npm.once('exit', (c) => resolve({ code: c, onDisk: fs.existsSync(har) })),
  );
  // The proxy outlives npm under sh: let it finish before the next test (bounded).
  for (let i = 0; i < 100 && !fs.existsSync(har); i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 300));
  return { code, onDisk, out };
}

it('with bash as the script shell: the proxy handles the SIGTERM, the report is on disk when npm exits, npm exits with the gate code', async () => {
  const run = await stopUnderNpm('/bin/bash');
  expect(run.out).toContain('received SIGTERM');
  expect(run.onDisk).toBe(true);
  expect(run.code).toBe(0);
}, 90_000);

it('with sh as the script shell: the proxy warns at start, stops when its parent goes and names it', async () => {
  const run = await stopUnderNpm('/bin/sh');
  expect(run.out).toMatch(/started by npm through (sh|dash) \(pid \d+\), which does not pass a signal on/);
  await new Promise((r) => setTimeout(r, 500));
  expect(run.out).toMatch(/its parent \((sh|dash), run by npm, pid \d+\) exited/);
  const har = path.join(dir, 'sh.har');
  expect(fs.existsSync(har)).toBe(true);
}, 90_000);

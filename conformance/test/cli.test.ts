import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { syntheticDocument } from '../../bench/lib/synthetic-document';
import { createMockServer } from '../../mock/node';
import { startReferenceServer } from '../../test/support/reference-server';

const ROOT = path.join(__dirname, '..', '..');
const REGISTER = path.join(__dirname, '..', '..', 'test', 'support', 'ts-register.js');
const CLI = path.join(ROOT, 'conformance', 'cli.ts');

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', REGISTER, CLI, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, CONFORMANCE_API_KEY: '', CONFORMANCE_QUOTA_KEY: '', ...env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function refusedUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

describe('the CLI as a child process', () => {
  it('exits 2 with one clear line when the target refuses connections', async () => {
    const run = await runCli(['--target', await refusedUrl()], { CONFORMANCE_API_KEY: 'good-key' });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/is unreachable: .*ECONNREFUSED/)]);
  });

  it('exits 0 against a faithful server, 1 against a broken one, never printing the key', async () => {
    const good = await startReferenceServer();
    const bad = await startReferenceServer({ fault: 'auth-ignored' });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-cli-'));
    try {
      const env = { CONFORMANCE_API_KEY: 'good-key' };
      const junit = path.join(dir, 'report.xml');
      const har = path.join(dir, 'run.har');
      const [ok, failed] = await Promise.all([
        runCli(['--target', good.url, '--seed', '5', '--exclude', 'generated', '--record', har], env),
        runCli(['--target', bad.url, '--reporter', 'junit', '--output', junit], env),
      ]);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/PASS auth\.missing-key/);
      expect(ok.stderr).toMatch(/seed 5/);
      expect(failed.code).toBe(1);
      expect(fs.readFileSync(junit, 'utf8')).toMatch(/<failure type="contract" message="[^"]*expected 401/);
      const recorded = fs.readFileSync(har, 'utf8');
      expect(JSON.parse(recorded)).toMatchObject({ log: { version: '1.2', entries: expect.any(Array) } });
      expect(ok.stderr).toMatch(/\d+ exchanges recorded in .*run\.har/);
      for (const out of [
        ok.stdout,
        ok.stderr,
        failed.stdout,
        failed.stderr,
        fs.readFileSync(junit, 'utf8'),
        recorded,
      ])
        expect(out).not.toContain('good-key');
    } finally {
      await Promise.all([good.close(), bad.close()]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('--min-coverage', () => {
  it('exits 1 when fewer documented (operation, status) pairs were observed than asked, 0 when enough', async () => {
    const good = await startReferenceServer();
    try {
      const env = { CONFORMANCE_API_KEY: 'good-key' };
      const args = ['--target', good.url, '--rule', 'auth.missing-key'];
      const [low, met] = await Promise.all([
        runCli([...args, '--min-coverage', '90'], env),
        runCli([...args, '--min-coverage', '1'], env),
      ]);
      expect(low.stdout).toMatch(/PASS auth\.missing-key/);
      expect(low.stderr).toMatch(/coverage: \d+\/\d+ documented \(operation, status\) pairs observed/);
      expect(low.stderr).toMatch(/under --min-coverage 90%/);
      expect(low.stderr).not.toContain('\r'); // not a terminal: no progress line
      expect(low.code).toBe(1);
      expect(met.code).toBe(0);
    } finally {
      await good.close();
    }
  });

  it('is a percentage: anything else is a usage error (exit 2)', async () => {
    const run = await runCli(['--target', 'http://127.0.0.1:1/v1', '--min-coverage', '150'], {
      CONFORMANCE_API_KEY: 'k',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--min-coverage is a percentage 0-100, got "150"/);
  });
});

/** The CLI with its stdout into a shell pipe (`| cat`), as a CI step that tees the report has it. */
function runCliThroughPipe(args: string[], env: Record<string, string>): Promise<CliRun> {
  const quoted = [process.execPath, '-r', REGISTER, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`);
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', `set -o pipefail; ${quoted.join(' ')} | cat`],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('a report larger than a pipe holds', () => {
  it('arrives whole through a shell pipe before the process exits (a JSON report of 500 operations)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-big-'));
    const file = path.join(dir, 'synthetic.json');
    fs.writeFileSync(file, JSON.stringify(syntheticDocument(1000)));
    const mock = await createMockServer({
      specPath: file,
      keys: [{ key: 'big-report-key-0123456789', plan: 'enterprise', perMinute: 1e7, perDay: 1e9 }],
      // The auth rules send hundreds of requests without a key: callers without one get the free plan's numbers.
      plans: { free: { perMinute: 1e6, perDay: 1e7 } },
      quiet: true,
    });
    try {
      const target = await mock.listen(0, '127.0.0.1');
      const run = await runCliThroughPipe(
        ['--target', target, '--spec', file, '--scenarios', 'none', '--tag', 'group1', '--reporter', 'json'],
        { CONFORMANCE_API_KEY: 'big-report-key-0123456789' },
      );
      expect(run.stdout.length).toBeGreaterThan(200_000);
      const report = JSON.parse(run.stdout) as { rules: unknown[] };
      expect(report.rules.length).toBeGreaterThan(500);
      expect(run.code).toBe(0);
    } finally {
      await mock.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

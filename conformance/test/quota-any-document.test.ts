/**
 * The quota rules provoke a 429 on any document that documents one (issue 31): here the pet store's document
 * with its rate-limit headers described on the 429 only, as many documents do. The CLI is spawned against the
 * reference server (127.0.0.1, port 0): faithful, it passes; with its RateLimit reset beyond its Retry-After, the
 * IETF Retry-After rule fails (exit 1) instead of being skipped.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReferenceServer } from '../../test/support/reference-server';

const ROOT = path.join(__dirname, '..', '..');
const REGISTER = path.join(__dirname, '..', '..', 'test', 'support', 'ts-register.js');
const CLI = path.join(ROOT, 'conformance', 'cli.ts');

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', REGISTER, CLI, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, CONFORMANCE_API_KEY: 'good-key', CONFORMANCE_QUOTA_KEY: 'quota-key' },
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the quota rules on a document that documents its limit on the 429 only', () => {
  let dir: string;
  let spec: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quota-any-'));
    spec = path.join(dir, 'limits-on-429.yaml');
    const text = fs.readFileSync(path.join(ROOT, 'spec', 'openapi.yaml'), 'utf8');
    const stripped = text.replace(/^ {10}headers:\n(?: {12}X-RateLimit-.*\n){3}/gm, '');
    expect(stripped).not.toBe(text);
    expect(stripped).not.toMatch(/^ {12}X-RateLimit-/m);
    fs.writeFileSync(spec, stripped);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const args = (url: string) => ['--target', url, '--spec', spec, '--include', 'quota', '--rule'];
  const rules = 'quota.burst-exact,quota.429-after-limit,ratelimit.ietf-retry-after,ratelimit.ietf-syntax';

  it('provokes the 429: every quota rule and the IETF Retry-After rule pass on a faithful server', async () => {
    const server = await startReferenceServer();
    try {
      const run = await runCli([...args(server.url), rules]);
      expect(run.stdout).toMatch(/PASS quota\.429-after-limit/);
      expect(run.stdout).toMatch(/PASS ratelimit\.ietf-retry-after/);
      expect(run.stdout).toMatch(/PASS quota\.burst-exact/);
      expect(run.code).toBe(0);
      expect(server.rejected.get('key:quota-key')).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('fails a server whose RateLimit reset lies beyond its Retry-After (exit 1)', async () => {
    const server = await startReferenceServer({ fault: 'ietf-early-retry-after' });
    try {
      const run = await runCli([...args(server.url), rules]);
      expect(run.stdout).toMatch(
        /FAIL ratelimit\.ietf-retry-after .*Retry-After 0 is earlier than RateLimit t=/,
      );
      expect(run.code).toBe(1);
    } finally {
      await server.close();
    }
  }, 60_000);
});

/**
 * Exit codes with one meaning (docs/check-a-server.md#exit-codes), as a user meets them: the CLI spawned against a
 * real listening mock (127.0.0.1, port 0). 0 every required rule held; 1 a rule failed; 2 the run could not judge.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { createMockServer, type MockServer } from '../../mock/node';

const ROOT = path.join(__dirname, '..', '..');
const REGISTER = path.join(__dirname, '..', '..', 'test', 'support', 'ts-register.js');
const CLI = path.join(ROOT, 'conformance', 'cli.ts');

const GOOD = 'exit-codes-good-key-0123456789';
const TINY = 'exit-codes-tiny-key-0123456789';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `env` values of undefined are unset (jest itself may run with FORCE_COLOR). */
function runCli(args: string[], key: string, env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, CONFORMANCE_API_KEY: key, CONFORMANCE_QUOTA_KEY: '' };
  for (const [name, value] of Object.entries(env))
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', REGISTER, CLI, ...args],
      {
        cwd: ROOT,
        env: childEnv,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** `n` requests to `url` (with `key` when given), one after the other. */
async function hammer(url: string, n: number, key?: string): Promise<Record<number, number>> {
  const seen: Record<number, number> = {};
  for (let i = 0; i < n; i++) {
    const res = await fetch(url, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
    await res.arrayBuffer();
    seen[res.status] = (seen[res.status] ?? 0) + 1;
  }
  return seen;
}

async function startMock(): Promise<{ mock: MockServer; url: string }> {
  const mock = await createMockServer({
    keys: [
      { key: GOOD, plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 },
      { key: TINY, plan: 'enterprise', perMinute: 3, perDay: 1000 },
    ],
    banThreshold: 3,
    quiet: true,
  });
  return { mock, url: await mock.listen(0, '127.0.0.1') };
}

describe('exit codes of the runner', () => {
  let mock: MockServer;
  let url: string;
  beforeEach(async () => ({ mock, url } = await startMock()));
  afterEach(() => mock.close());

  it('0 when every rule held; the last lines group the skips by cause, counted', async () => {
    const run = await runCli(['--target', url], GOOD);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Skipped 1 of \d+ rules:\n {2}1 ruled out by this run's options:\n/);
    expect(run.stdout).toMatch(
      /1 × opt-in: needs the quota rules .*: ratelimit\.ietf-retry-after\n\n\d+ passed/,
    );
  }, 60_000);

  it('colours the human report in a pipe with FORCE_COLOR, never with NO_COLOR alone', async () => {
    const args = ['--target', url, '--rule', 'auth.missing-key'];
    const [forced, plain] = await Promise.all([
      runCli(args, GOOD, { FORCE_COLOR: '1', NO_COLOR: undefined }),
      runCli(args, GOOD, { NO_COLOR: '1', FORCE_COLOR: undefined }),
    ]);
    expect(forced.stdout).toContain('\u001b[32mPASS\u001b[0m auth.missing-key');
    expect(plain.stdout).toMatch(/^PASS auth\.missing-key/m);
    expect(plain.stdout).not.toContain('\u001b[');
  });

  it('2 with one line for a key the server does not know (not twenty server failures)', async () => {
    const run = await runCli(['--target', url], 'no-such-key-0123456789abcdef');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^conformance: the target does not accept the API key \(401 to GET \/categories\)/,
      ),
    ]);
  });

  it('2 when the key is banned before the run began', async () => {
    const seen = await hammer(`${url}/categories`, 12, TINY);
    expect(seen[429]).toBeGreaterThan(3);
    const run = await runCli(['--target', url, '--max-wait', '1000'], TINY);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refuses the key with 429 \(GET \/categories, Retry-After \d+\).*banned/);
    expect(run.stdout).toBe('');
  });

  it('2 when the address is banned and every rule without a key is skipped: the skips say which and why', async () => {
    // Callers without a key get the free plan's 60 a minute per address; 3 refusals more ban the address.
    await hammer(`${url}/categories`, 66);
    const run = await runCli(['--target', url, '--max-wait', '1000'], GOOD);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(
      /\n {2}\d+ rate-limited or banned by the target \(the run could not check them\):\n/,
    );
    expect(run.stdout).toMatch(/auth\.missing-key/);
    expect(run.stdout).toMatch(/0 failed, \d+ skipped in \d+ ms\n$/);
    expect(run.stderr).toMatch(
      /conformance: exit 2: could not judge: \d+ rule\(s\) skipped because the target rate-limited or banned the run: .*auth\./,
    );
  }, 60_000);

  it('2 when a rule --require names is skipped; the JSON report lists the required rules', async () => {
    const run = await runCli(['--target', url, '--require', 'quota', '--reporter', 'json'], GOOD);
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout) as { required: string[] };
    expect(report.required).toEqual(expect.arrayContaining(['quota.burst-exact', 'quota.429-after-limit']));
    expect(run.stderr).toMatch(/Skipped \d+ of \d+ rules:/);
    expect(run.stderr).toMatch(
      /exit 2: could not judge: \d+ required rule\(s\) \(--require\) were skipped: quota\./,
    );
  }, 60_000);

  it('0 when the required rules ran (a rule id glob)', async () => {
    const run = await runCli(
      ['--target', url, '--require', 'auth.*', '--rule', 'auth.missing-key,auth.unknown-key'],
      GOOD,
    );
    expect(run.stderr).not.toMatch(/exit 2/);
    expect(run.code).toBe(0);
  });

  it.each([
    [['--require', 'no-such-thing'], /--require no-such-thing: no selected rule has this id or tag/],
    [['--rule', 'auth.missing-key', '--exclude', 'auth'], /the filters select no rule/],
  ])('2 for %j (a filter matching nothing), one line', async (args, message) => {
    const run = await runCli(['--target', url, ...args], GOOD);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });
});

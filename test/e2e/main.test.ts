/** The process entry as a user runs it: start, print, serve, stop on SIGTERM; bad input refused at start. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'mock', 'node', 'main.ts');

function start(args: string[]): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(check: () => RegExpMatchArray | null, ms = 20_000): Promise<RegExpMatchArray> {
  const until = Date.now() + ms;
  for (;;) {
    const m = check();
    if (m) return m;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('mock/node/main.ts', () => {
  it('starts on the given port, prints the base URL and demo keys, logs without keys, and stops on SIGTERM', async () => {
    const proc = start(['--port', '0']);
    const m = await waitFor(() => proc.output().match(/listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/));
    const base = m[1] as string;
    expect(proc.output()).toMatch(/free\s+free-demo-key/);
    expect(proc.output()).toMatch(/enterprise\s+ent-demo-key/);
    const res = await fetch(`${base}/categories`, { headers: { Authorization: 'Bearer free-demo-key' } });
    expect(res.status).toBe(200);
    await fetch(`${base}/categories`, { headers: { Authorization: 'Bearer wrong-secret-key' } });
    const logLine = await waitFor(() => proc.output().match(/\{"t":[^\n]*"status":401[^\n]*\}/));
    expect(JSON.parse(logLine[0])).toMatchObject({
      method: 'GET',
      path: '/v1/categories',
      status: 401,
      ms: expect.any(Number),
    });
    const logs = proc
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logs.join('\n')).not.toMatch(/free-demo-key|wrong-secret-key/);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  });

  it('--quiet mutes the request lines', async () => {
    const proc = start(['--port', '0', '--quiet']);
    const m = await waitFor(() => proc.output().match(/listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/));
    await fetch(`${m[1]}/categories`, { headers: { Authorization: 'Bearer free-demo-key' } });
    await new Promise((r) => setTimeout(r, 200));
    expect(proc.output()).not.toMatch(/"status":200/);
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
  });

  it('refuses a bad keys file at start, naming the entry, and never prints a key from it', async () => {
    const proc = start(['--port', '0', '--keys', path.join(ROOT, 'fixtures', 'keys', 'bad-plan.json')]);
    expect(await proc.exited).toBe(2);
    expect(proc.output()).toMatch(/keys\/1\/plan must be equal to one of the allowed values/);
    expect(proc.output()).not.toMatch(/bad-key|ok-key/);
  });

  it('refuses a broken spec at start with the bad spot', async () => {
    const proc = start(['--port', '0', '--spec', path.join(ROOT, 'fixtures', 'specs', 'bad-ref.yaml')]);
    expect(await proc.exited).toBe(2);
    expect(proc.output()).toMatch(/NoSuchSchema/);
  });

  it('--help lists every option', async () => {
    const proc = start(['--help']);
    expect(await proc.exited).toBe(0);
    for (const flag of [
      '--host',
      '--port',
      '--keys',
      '--seed',
      '--quiet',
      '--store',
      '--redis-url',
      '--cors-origins',
      '--max-body-bytes',
      '--ban-threshold',
      '--sunset',
      '--no-admin',
      '--admin-token',
    ]) {
      expect(proc.output()).toContain(flag);
    }
  });
});

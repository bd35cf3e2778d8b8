/**
 * The mock's graceful stop, launched as users launch it (`npm start`, `node bin/petstore-mock.js` from a shell, a
 * shell that npm or npx put between them and the mock): SIGTERM stops accepting, lets a request in flight (a slow
 * upload) finish, then exits 0; with memory and Redis stores; a second signal stops at once.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { findRedisServer, startRedisServer } from '../support/redis-test-server';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'petstore-mock.js');

interface Launched {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  base: string;
  port: number;
}

async function launch(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Launched> {
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_command: undefined, ...env },
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // `npm start` builds first when the sources changed.
  const until = Date.now() + 120_000;
  let m: RegExpMatchArray | null;
  while (!(m = /listening on (http:\/\/127\.0\.0\.1:(\d+)\/v1)/.exec(out))) {
    if (Date.now() > until || child.exitCode !== null) throw new Error(`the mock did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, output: () => out, exited, base: m[1] as string, port: Number(m[2]) };
}

/** A create whose body arrives slowly: the first bytes now, the rest when `finish` is called. */
function slowCreate(port: number): { finish: () => void; answer: Promise<{ status: number; body: string }> } {
  const body = JSON.stringify({ name: `slow-${Date.now()}`, description: 'sent slowly' });
  const req = http.request({
    host: '127.0.0.1',
    port,
    path: '/v1/categories',
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer pro-demo-key',
      'content-length': Buffer.byteLength(body),
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 8));
  return { finish: () => req.end(body.slice(8)), answer };
}

/** Does a new connection to `port` get accepted? */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGTERM `signalled` while a slow create is in flight on `mock`: refused new connections, the create done. */
async function drainsInFlight(mock: Launched, signalled: ChildProcess): Promise<void> {
  const slow = slowCreate(mock.port);
  await sleep(200);
  signalled.kill('SIGTERM');
  // The mock stops accepting (a shell or npm between: once the mock noticed its parent is gone).
  const until = Date.now() + 5000;
  while (await accepts(mock.port)) {
    if (Date.now() > until) throw new Error(`still accepting after SIGTERM:\n${mock.output()}`);
    await sleep(50);
  }
  slow.finish();
  const answer = await slow.answer;
  expect(answer.status).toBe(201);
  expect(JSON.parse(answer.body)).toMatchObject({ description: 'sent slowly' });
}

/** The process with this pid has ended. */
async function gone(pid: number): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() > until) throw new Error(`process ${pid} still runs`);
    await sleep(50);
  }
}

describe('graceful stop of the mock', () => {
  it('npm start: SIGTERM to npm lets the slow create finish, then npm exits with the mock code 0', async () => {
    const mock = await launch('npm', ['start', '--', '--port', '0', '--quiet']);
    await drainsInFlight(mock, mock.child);
    expect(await mock.exited).toBe(0);
    expect(mock.output()).toMatch(/received SIGTERM: no new connections/);
  }, 180_000);

  it('a shell with npm in between (npx): the mock stops gracefully when the shell it ran under is killed', async () => {
    // npm exec and npm run put `sh -c` between npm and the command; signalled, sh dies and forwards nothing.
    const mock = await launch('sh', ['-c', `"${process.execPath}" "${BIN}" --port 0 --quiet; true`], {
      npm_command: 'exec',
    });
    const mockPid = mockPidUnder(mock.child.pid as number);
    await drainsInFlight(mock, mock.child);
    await gone(mockPid);
    expect(await mock.exited).not.toBe(0); // the shell itself was killed
  }, 60_000);

  it('node bin/petstore-mock.js: a request still in flight at --drain-ms is cut, the exit is 0; a second signal stops at once', async () => {
    const mock = await launch(process.execPath, [BIN, '--port', '0', '--quiet', '--drain-ms', '800']);
    const slow = slowCreate(mock.port);
    const outcome = slow.answer.then(
      () => 'answered',
      () => 'cut',
    );
    await sleep(200);
    const started = Date.now();
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(await outcome).toBe('cut');

    const again = await launch(process.execPath, [BIN, '--port', '0', '--quiet']);
    const stuck = slowCreate(again.port).answer.then(
      () => 'answered',
      () => 'cut',
    );
    await sleep(200);
    const t0 = Date.now();
    again.child.kill('SIGTERM');
    await sleep(200);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(130);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await stuck).toBe('cut');
  }, 60_000);

  (findRedisServer() ? it : it.skip)(
    'with --store redis too: the slow create finishes and the exit is 0',
    async () => {
      const redis = await startRedisServer();
      try {
        const mock = await launch(process.execPath, [
          BIN,
          '--port',
          '0',
          '--quiet',
          '--store',
          'redis',
          '--redis-url',
          redis.url,
        ]);
        await drainsInFlight(mock, mock.child);
        expect(await mock.exited).toBe(0);
      } finally {
        await redis.stop();
      }
    },
    60_000,
  );
});

/** The pid of the node process the shell `pid` started. */
function mockPidUnder(pid: number): number {
  const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  return Number(out.trim().split(/\s+/)[0]);
}

/**
 * Issues 6 and 15 end to end: three mock processes (real child processes, port 0) share one real
 * redis-server, behind Debian's nginx rendered from deploy/nginx.conf.template (the mocks trust it with
 * --trust-proxy 127.0.0.1). The mocks run from the TypeScript sources through tsx unless the build is fresh.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request as httpRequest } from 'node:http';
import { runConformance } from '../conformance';
import { findNginx, startNginx, type RunningNginx } from '../scripts/lib/nginx';
import { findRedisServer, startRedisServer, type RedisTestServer } from './support/redis-test-server';

const ROOT = resolve(__dirname, '..');
const START_TIMEOUT_MS = 45_000;
/** Every mock process this file started, so none outlives it, even after a timed-out test. */
const children = new Set<ChildProcess>();
process.once('exit', () => children.forEach((c) => c.kill('SIGKILL')));

interface MockProcess {
  url: string;
  stop(): Promise<void>;
}

/** The built entry when it is newer than every source (a faster start), else the sources through tsx. */
function mockEntry(): string[] {
  const built = join(ROOT, 'dist', 'mock', 'node', 'main.js');
  const fromSources = ['--import', 'tsx', 'mock/node/main.ts'];
  if (!existsSync(built)) return fromSources;
  const builtMs = statSync(built).mtimeMs;
  const sources = ['mock', 'spec'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => join(ROOT, dir, f)),
  );
  const stale = sources.some((f) => f.endsWith('.ts') && statSync(f).mtimeMs > builtMs);
  return stale ? fromSources : [built];
}

/** Start the mock with `--store redis` and resolve with the base URL it prints. */
function startMock(redisUrl: string, keysFile: string): Promise<MockProcess> {
  const args = [...mockEntry(), '--store', 'redis', '--redis-url', redisUrl];
  args.push('--host', '127.0.0.1', '--port', '0', '--keys', keysFile, '--seed', 'none', '--quiet');
  // nginx connects from 127.0.0.1: its X-Forwarded-For names the client; nobody else's is believed.
  args.push('--trust-proxy', '127.0.0.1');
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const stop = (): Promise<void> => stopChild(child);
  const started = new Promise<MockProcess>((resolvePromise, reject) => {
    let output = '';
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`mock process ${why}:\n${output.slice(-2000)}`));
    };
    const timer = setTimeout(() => fail(`printed no URL within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once('exit', (code) => fail(`exited with ${code}`));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/v1/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.once('exit', () => children.delete(child));
      resolvePromise({ url: match[0], stop });
    });
  });
  // The first request after start is slow (lazy warm-up inside the mock): take it here, unauthenticated.
  return started.then(async (mock) => {
    await fetch(`${mock.url}/categories`, { signal: AbortSignal.timeout(START_TIMEOUT_MS) }).then((r) =>
      r.text(),
    );
    return mock;
  });
}

/** SIGTERM (the mock's clean shutdown), SIGKILL after graceMs; polls, as an exit can come before a listener. */
async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  const gone = (): boolean => child.exitCode !== null || child.signalCode !== null;
  if (gone()) return;
  child.kill('SIGTERM');
  for (let waitedMs = 0; !gone(); waitedMs += 50) {
    if (waitedMs === graceMs) child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

async function call(
  url: string,
  key: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const names = (body: unknown): string[] => (body as Array<{ name: string }>).map((c) => c.name);

/** Wait out the last seconds of a minute, so a burst of requests stays inside one minute window. */
async function awayFromMinuteBoundary(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 3000) await new Promise((r) => setTimeout(r, left + 50));
}

if (findRedisServer() && findNginx()) {
  describeCluster();
} else if (process.env.CI === 'true') {
  it('has redis-server and nginx installed (required in CI)', () => {
    throw new Error(
      'redis-server or nginx not found: .ci/redis.sh and .ci/nginx.sh should have installed them',
    );
  });
} else {
  console.warn(
    '\n!!! SKIPPED: cluster tests: needs redis-server and nginx (apt-get install redis-server nginx-light)\n',
  );
  it.skip('cluster tests (redis-server or nginx not installed)', () => undefined);
}

function describeCluster(): void {
  describe('three mock processes sharing one Redis', () => {
    const fresh = (): string => `cluster-free-${randomBytes(8).toString('hex')}`;
    const keys = { shared: fresh(), burst: fresh(), outage: fresh() };
    const runnerKeys = { main: `cluster-pro-${randomBytes(8).toString('hex')}`, quota: fresh() };
    let dir: string;
    let keysFile: string;
    let redis: RedisTestServer;
    let mocks: MockProcess[] = [];
    let front: RunningNginx;
    const at = (i: number, path: string): string => `${mocks[i % mocks.length]?.url}${path}`;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'petstore-cluster-'));
      keysFile = join(dir, 'keys.json');
      const entries = [
        ...Object.values(keys).map((key) => ({ key, plan: 'free' })),
        { key: runnerKeys.main, plan: 'pro' },
        { key: runnerKeys.quota, plan: 'free' },
      ];
      writeFileSync(keysFile, JSON.stringify({ keys: entries }));
      redis = await startRedisServer();
      mocks = await Promise.all([0, 1, 2].map(() => startMock(redis.url, keysFile)));
      front = await startNginx({ port: 0, upstreams: mocks.map((m) => new URL(m.url).host) });
    }, 150_000);

    afterAll(async () => {
      await front?.stop();
      await Promise.all(mocks.map((m) => m.stop()));
      await redis?.destroy();
      rmSync(dir, { recursive: true, force: true });
    });

    it('lists a category created through one process in the others', async () => {
      const created = await call(at(0, '/categories'), keys.shared, {
        method: 'POST',
        body: { name: 'dog' },
      });
      expect(created.status).toBe(201);
      for (const i of [1, 2])
        expect(names((await call(at(i, '/categories'), keys.shared)).body)).toContain('dog');
    });

    it('gives exactly 60 non-429 answers to 100 parallel requests on a fresh free key', async () => {
      await awayFromMinuteBoundary();
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => call(at(i, '/categories'), keys.burst)),
      );
      expect(answers.filter((a) => a.status !== 429)).toHaveLength(60);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(60);
    });

    it('answers 503 while Redis is down and resumes after it restarts, losing no category', async () => {
      await call(at(1, '/categories'), keys.outage, { method: 'POST', body: { name: 'cat' } });
      await redis.stop('SIGKILL');
      const during = await Promise.all([0, 1, 2].map((i) => call(at(i, '/categories'), keys.outage)));
      for (const answer of during) {
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({
          code: expect.any(String),
          message: expect.any(String),
          status: 503,
        });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      await redis.restart();
      for (const i of [0, 1, 2]) {
        const answer = await eventuallyOk(() => call(at(i, '/categories'), keys.outage));
        expect(names(answer.body)).toEqual(['dog', 'cat']);
      }
    });

    it('passes the conformance runner, quota rules included, through nginx', async () => {
      await awayFromMinuteBoundary();
      const report = await runConformance({
        target: `${front.url}/v1`,
        key: runnerKeys.main,
        quotaKey: runnerKeys.quota,
        include: ['quota'],
      });
      const failed = report.rules.filter((r) => r.status !== 'pass');
      expect(failed.map((r) => `${r.id}: ${JSON.stringify(r.evidence[0] ?? {})}`)).toEqual([]);
      expect(report.rules.some((r) => r.id.includes('quota'))).toBe(true);
      // Round robin really spread the run: nginx's access log names the mock that answered each request.
      const spread = upstreamCounts(front.dir, mocks);
      expect(spread.every((n) => n > 10)).toBe(true);
    }, 60_000);

    it('gives two client addresses separate anonymous limits through nginx', async () => {
      const port = Number(new URL(front.url).port);
      await awayFromMinuteBoundary();
      const first = await Promise.all(Array.from({ length: 61 }, () => anonymous(port, '127.0.0.2')));
      expect(first.filter((a) => a.status === 401)).toHaveLength(60);
      expect(first.filter((a) => a.status === 429)).toHaveLength(1);
      // 127.0.0.2 is no trusted proxy: a header it writes itself does not buy it a fresh limit.
      expect((await anonymous(port, '127.0.0.2', '203.0.113.9')).status).toBe(429);
      const other = await anonymous(port, '127.0.0.3');
      expect(other).toEqual({ status: 401, remaining: '59' });
    });

    it('starts nginx in front of the mocks with npm run cluster -- --balancer nginx', async () => {
      const cluster = await startCluster(redis.url, keysFile);
      try {
        // Same Redis as the other mocks: the category created through them is listed here too.
        const listed = await call(`${cluster.url}/categories`, keys.shared);
        expect(listed.status).toBe(200);
        expect(names(listed.body)).toContain('dog');
      } finally {
        await cluster.stop();
      }
      expect(cluster.output()).toMatch(/Balancer: http:\/\/127\.0\.0\.1:\d+\/v1 \(nginx/);
    }, 90_000);

    it('keeps every category when a mock process restarts', async () => {
      const before = names((await call(at(0, '/categories'), keys.shared)).body);
      expect(before.slice(0, 2)).toEqual(['dog', 'cat']);
      const old = mocks.pop();
      await old?.stop();
      mocks.push(await startMock(redis.url, keysFile));
      expect(names((await call(at(2, '/categories'), keys.shared)).body)).toEqual(before);
    }, 90_000);
  });
}

/** How many requests nginx sent to each mock, from the `upstream=` field of its access log. */
function upstreamCounts(nginxDir: string, mocks: MockProcess[]): number[] {
  const log = readFileSync(join(nginxDir, 'access.log'), 'utf8');
  return mocks.map((m) => log.split(`upstream=${new URL(m.url).host} `).length - 1);
}

/** One request without a key from a chosen loopback address (Linux routes all of 127.0.0.0/8 to lo). */
function anonymous(
  port: number,
  localAddress: string,
  forwardedFor?: string,
): Promise<{ status: number; remaining: string | undefined }> {
  const headers = forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {};
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/v1/categories', localAddress, headers, agent: false },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolvePromise({
            status: res.statusCode ?? 0,
            remaining: res.headers['x-ratelimit-remaining'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** `node scripts/cluster.js --balancer nginx` with two mocks on free ports, on the test's Redis. */
async function startCluster(
  redisUrl: string,
  keysFile: string,
): Promise<{ url: string; output(): string; stop(): Promise<void> }> {
  const args = ['scripts/cluster.js', '--balancer', 'nginx', '--processes', '2', '--base-port', '0'];
  args.push('--port', '0', '--keys', keysFile, '--seed', 'none', '--quiet');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: redisUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const match = /Balancer: (http:\/\/\S+\/v1)/.exec(output);
    if (match?.[1]) return { url: match[1], output: () => output, stop: () => stopChild(child, 15_000) };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopChild(child, 15_000);
      throw new Error(`npm run cluster did not start nginx:\n${output.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Call until a 200 comes back (the mocks reconnect to Redis by themselves); 10 s at most. */
async function eventuallyOk(fn: () => Promise<Answer>): Promise<Answer> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await fn();
    if (answer.status === 200 || Date.now() > deadline) return answer;
    expect(answer.status).toBe(503);
    await new Promise((r) => setTimeout(r, 100));
  }
}

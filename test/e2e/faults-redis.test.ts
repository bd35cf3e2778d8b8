/**
 * Issue 32, fault suite: a shared mock whose Redis is killed and restarted. Readiness follows the store, the
 * outage's 503 does not claim a spent quota, and a Redis restarted empty hands out no id twice.
 */
import { createMockServer, type MockServer } from '../../mock/node/index';
import { findRedisServer, startRedisServer, type RedisTestServer } from '../support/redis-test-server';
import { KEYS, testClock } from '../support/mock-harness';

const run = findRedisServer() || process.env.CI === 'true' ? describe : describe.skip;
const AUTH = { Authorization: 'Bearer pro-key' };

/** Retry until `fn` resolves truthy (Redis coming back takes a reconnect). */
async function until<T>(fn: () => Promise<T>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

run('a shared mock while its Redis is killed and restarted', () => {
  let redis: RedisTestServer;
  let a: MockServer;
  let b: MockServer;
  let baseA: string;
  let baseB: string;
  beforeAll(async () => {
    redis = await startRedisServer();
    const clock = testClock();
    const options = { keys: KEYS, clock, store: 'redis' as const, redisUrl: redis.url, quiet: true };
    [a, b] = await Promise.all([createMockServer(options), createMockServer(options)]);
    [baseA, baseB] = await Promise.all([a.listen(0), b.listen(0)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await redis?.destroy();
  });

  const origin = (base: string): string => base.replace(/\/v1$/, '');
  const create = async (base: string, name: string): Promise<number> => {
    const res = await fetch(`${base}/categories`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    if (res.status !== 201) throw new Error(`create answered ${res.status}`);
    return ((await res.json()) as { id: number }).id;
  };

  it('answers /_mock/ready 503 (Error shape, Retry-After) while Redis is down; health stays 200', async () => {
    expect((await fetch(`${origin(baseA)}/_mock/ready`)).status).toBe(200);
    await fetch(`${baseA}/categories`, { headers: AUTH });
    await redis.stop('SIGKILL');
    try {
      const ready = await fetch(`${origin(baseA)}/_mock/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await ready.json()).toMatchObject({ code: 'service_unavailable', status: 503 });
      expect((await fetch(`${origin(baseA)}/_mock/health`)).status).toBe(200);
      const api = await fetch(`${baseA}/categories`, { headers: AUTH });
      expect(api.status).toBe(503);
      // An outage is not a spent quota: the remaining count is what this process last knew, not 0.
      expect(Number(api.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
    } finally {
      await redis.restart();
    }
    await until(async () => (await fetch(`${origin(baseA)}/_mock/ready`)).status === 200);
  });

  it('hands out no id twice across two processes when Redis comes back empty', async () => {
    await until(async () => (await fetch(`${origin(baseB)}/_mock/ready`)).status === 200);
    const before = [await create(baseA, 'a1'), await create(baseB, 'b1'), await create(baseA, 'a2')];
    await new Promise((r) => setTimeout(r, 50));
    await redis.wipe();
    const after = await until(() => create(baseB, 'b2'));
    const last = await until(() => create(baseA, 'a3'));
    expect(new Set([...before, after, last]).size).toBe(5);
    expect(after).toBeGreaterThan(Math.max(...before));
  });
});

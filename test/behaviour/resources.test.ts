/**
 * The second document (fixtures/specs/petstore-full.yaml: pets, orders and category items published) served
 * from the document alone: full lifecycle, validation, 404s, auth and limits, on the memory store and on Redis.
 */
import path from 'node:path';
import type { MockServer } from '../../mock/node/index';
import { findRedisServer, startRedisServer, type RedisTestServer } from '../support/redis-test-server';
import { ADAPTER, createTestMock, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'petstore-full.yaml');
const KEY = 'resources-pro-key-0001';
const FREE = 'resources-free-key-001';
const hasRedis = findRedisServer() !== undefined;
if (!hasRedis && process.env.CI !== 'true')
  process.stderr.write(
    '\n!!! redis-server is missing: SKIPPING the Redis half of test/behaviour/resources.test.ts\n',
  );

describe.each([
  ['memory', false],
  ['redis', true],
])('the second document on the %s store', (_name, redis) => {
  // The fetch adapter is the engine in a browser or a test: memory only.
  const run =
    redis && ((!hasRedis && process.env.CI !== 'true') || ADAPTER === 'fetch') ? describe.skip : describe;
  run('', () => {
    let server: RedisTestServer | undefined;
    let mock: MockServer;
    let base: string;
    beforeAll(async () => {
      if (redis) server = await startRedisServer();
      mock = await createTestMock({
        specPath: SPEC,
        seedFile: null,
        clock: testClock(),
        keys: [
          { key: KEY, plan: 'pro' },
          { key: FREE, plan: 'free' },
        ],
        ...(redis && server ? { store: 'redis' as const, redisUrl: server.url } : {}),
      });
      base = await mock.listen(0);
    });
    afterAll(async () => {
      await mock?.close();
      await server?.destroy();
    });
    beforeEach(() => mock.reset());

    const call = async (method: string, p: string, body?: unknown, key = KEY, type = 'application/json') => {
      const res = await fetch(`${base}${p}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': type }) },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return {
        status: res.status,
        headers: res.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
      };
    };

    it('runs the whole lifecycle of a pet: create, read, list, replace, merge patch, delete, read 404', async () => {
      const created = await call('POST', '/pets', { name: 'Fido', tag: 'dog' });
      expect(created).toMatchObject({ status: 201, body: { id: 1, name: 'Fido', tag: 'dog' } });
      expect((await call('GET', '/pets/1')).body).toEqual({ id: 1, name: 'Fido', tag: 'dog' });
      expect((await call('GET', '/pets')).body).toEqual([{ id: 1, name: 'Fido', tag: 'dog' }]);
      expect((await call('PUT', '/pets/1', { name: 'Rex', status: 'available' })).body).toEqual({
        id: 1,
        name: 'Rex',
        status: 'available',
      });
      const merged = await call(
        'PATCH',
        '/pets/1',
        { tag: 'hound', status: null },
        KEY,
        'application/merge-patch+json',
      );
      expect(merged).toMatchObject({ status: 200, body: { id: 1, name: 'Rex', tag: 'hound' } });
      expect(merged.body).not.toHaveProperty('status');
      expect((await call('GET', '/pets/1')).body).toEqual({ id: 1, name: 'Rex', tag: 'hound' });
      const gone = await call('DELETE', '/pets/1');
      expect(gone.status).toBe(204);
      expect(gone.body).toBeUndefined();
      expect(await call('GET', '/pets/1')).toMatchObject({
        status: 404,
        body: { code: 'not_found', status: 404 },
      });
      expect((await call('DELETE', '/pets/1')).status).toBe(404);
      expect((await call('GET', '/pets')).body).toEqual([]);
    });

    it('answers a repeated read from its bytes until a write, and every write is seen by the next read', async () => {
      await call('POST', '/categories', { name: 'dog' });
      await call('POST', '/categories', { name: 'cat' });
      expect((await call('GET', '/categories/1')).body).toEqual({ id: 1, name: 'dog' });
      // The memory store answers its version at once: the item's bytes are kept and reused (Redis: built anew).
      const kept = () => [...mock.deps.readCache.values()][0]?.items.get('1')?.raw;
      const first = kept();
      if (!redis) expect(first).toBeInstanceOf(Uint8Array);
      expect((await call('GET', '/categories/1')).body).toEqual({ id: 1, name: 'dog' });
      expect(kept()).toBe(first);
      // A write to another item of the bucket, then to this one: each read after it sees the store.
      await call('PUT', '/categories/2', { name: 'cats' });
      expect((await call('GET', '/categories/1')).body).toEqual({ id: 1, name: 'dog' });
      await call('PUT', '/categories/1', { name: 'dogs' });
      expect((await call('GET', '/categories/1')).body).toEqual({ id: 1, name: 'dogs' });
      await call('PATCH', '/categories/1', { description: 'All dogs' }, KEY, 'application/merge-patch+json');
      expect((await call('GET', '/categories/1')).body).toEqual({
        id: 1,
        name: 'dogs',
        description: 'All dogs',
      });
      expect((await call('DELETE', '/categories/1')).status).toBe(204);
      expect((await call('GET', '/categories/1')).status).toBe(404);
      await call('POST', '/categories', { name: 'bird' });
      expect((await call('GET', '/categories/3')).body).toEqual({ id: 3, name: 'bird' });
      await mock.reset();
      expect((await call('GET', '/categories/3')).status).toBe(404);
    });

    it('keeps each resource apart, with its own ids, and categories get item operations too', async () => {
      await call('POST', '/pets', { name: 'a' });
      expect((await call('POST', '/categories', { name: 'dog' })).body).toEqual({ id: 1, name: 'dog' });
      expect((await call('POST', '/store/orders', { petId: 1, quantity: 2 })).body).toEqual({
        id: 1,
        petId: 1,
        quantity: 2,
      });
      expect((await call('PUT', '/categories/1', { name: 'dogs', description: 'All dogs' })).body).toEqual({
        id: 1,
        name: 'dogs',
        description: 'All dogs',
      });
      expect((await call('GET', '/categories')).body).toEqual([
        { id: 1, name: 'dogs', description: 'All dogs' },
      ]);
    });

    it.each([
      ['a missing required property', { tag: 'x' }, /\/name is required/],
      ['a wrong type', { name: 5 }, /\/name must be string/],
      ['a bound crossed', { name: 'x'.repeat(101) }, /\/name must NOT have more than 100 characters/],
      [
        'an enum violated',
        { name: 'x', status: 'lost' },
        /\/status must be equal to one of the allowed values/,
      ],
      ['a readOnly property', { name: 'x', id: 9 }, /\/id is assigned by the service/],
      ['an unknown property', { name: 'x', colour: 'red' }, /\/colour is not allowed/],
      ['malformed JSON', '{"name":', /not valid JSON/],
    ])('refuses %s with 400 and stores nothing', async (_case, body, message) => {
      const res = await call('POST', '/pets', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: expect.any(String),
        message: expect.stringMatching(message),
        status: 400,
      });
      expect((await call('GET', '/pets')).body).toEqual([]);
    });

    it('checks a replace and a merged patch against the schema; a failed one changes nothing', async () => {
      await call('POST', '/pets', { name: 'Fido' });
      expect((await call('PUT', '/pets/1', { tag: 'no name' })).status).toBe(400);
      expect((await call('PATCH', '/pets/1', { name: 7 }, KEY, 'application/merge-patch+json')).status).toBe(
        400,
      );
      expect((await call('GET', '/pets/1')).body).toEqual({ id: 1, name: 'Fido' });
    });

    it.each([
      ['GET', '/pets/99', undefined],
      ['PUT', '/pets/99', { name: 'x' }],
      ['PATCH', '/pets/99', { name: 'x' }],
      ['DELETE', '/pets/99', undefined],
      ['GET', '/store/orders/99', undefined],
    ])('answers %s %s for an unknown id with a 404 Error', async (method, p, body) => {
      const res = await call(
        method,
        p,
        body,
        KEY,
        method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
      );
      expect(res).toMatchObject({ status: 404, body: { code: 'not_found', status: 404 } });
      expect(res.headers.get('x-ratelimit-limit')).toBe('300');
    });

    it('requires the key on every operation and counts every request against the plan', async () => {
      const anon = await fetch(`${base}/pets/1`);
      expect(anon.status).toBe(401);
      expect(anon.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++) statuses.push((await call('GET', '/pets', undefined, FREE)).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      const limited = await call('GET', '/pets/1', undefined, FREE);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });
});

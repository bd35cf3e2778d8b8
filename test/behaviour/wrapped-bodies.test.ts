/**
 * Issue 26.1 on a blog written as the "real world" example apps are (fixtures/specs/wild/blog-31.yaml): bodies
 * wrapped in a named object, in and out; the slug the server makes is the id; lists hold the items, not the
 * wrappers. And 26.6: ids in the form the document gives. On the memory store and on Redis.
 */
import path from 'node:path';
import type { MockServer } from '../../mock/node/index';
import { findRedisServer, startRedisServer, type RedisTestServer } from '../support/redis-test-server';
import { ADAPTER, createTestMock, testClock, T0 } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'blog-31.yaml');
const KEY = 'blog-pro-key-00000001';
const hasRedis = findRedisServer() !== undefined;
type Json = Record<string, unknown>;

describe.each([
  ['memory', false],
  ['redis', true],
])('wrapped bodies on the %s store', (_name, redis) => {
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
        keys: [{ key: KEY, plan: 'pro' }],
        ...(redis && server ? { store: 'redis' as const, redisUrl: server.url } : {}),
      });
      base = await mock.listen(0);
    });
    afterAll(async () => {
      await mock?.close();
      await server?.destroy();
    });
    beforeEach(() => mock.reset());

    const call = async (method: string, p: string, body?: unknown, type = 'application/json') => {
      const res = await fetch(`${base}${p}`, {
        method,
        headers: {
          Authorization: `Token ${KEY}`,
          ...(body === undefined ? {} : { 'Content-Type': type }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json | undefined };
    };
    const draft = { title: 'Dragons', description: 'How to', body: 'Believe', tagList: ['dragons'] };

    it('answers a create in the wrapper, with the server-filled slug, author and dates', async () => {
      const made = await call('POST', '/articles', { article: draft });
      expect(made.status).toBe(201);
      expect(Object.keys(made.body ?? {})).toEqual(['article']);
      const article = made.body?.article as Json;
      expect(article).toMatchObject({
        ...draft,
        author: expect.objectContaining({ username: expect.any(String) }),
      });
      expect(article.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(article.createdAt).toBe(new Date(T0).toISOString());
    });

    it('reads back, lists (items, not wrappers), replaces and deletes by the slug', async () => {
      const made = (await call('POST', '/articles', { article: draft })).body?.article as Json;
      const slug = String(made.slug);
      expect(await call('GET', `/articles/${slug}`)).toEqual({ status: 200, body: { article: made } });
      const list = await call('GET', '/articles');
      expect(list).toEqual({ status: 200, body: { articles: [made], articlesCount: 1 } });
      const next = { title: 'Wyverns', description: 'Why', body: 'Fly', tagList: [] };
      const put = await call('PUT', `/articles/${slug}`, { article: next });
      expect(put).toEqual({ status: 200, body: { article: { ...made, ...next } } });
      expect((await call('GET', `/articles/${slug}`)).body).toEqual({ article: { ...made, ...next } });
      expect((await call('POST', `/articles/${slug}/favorite`)).body).toEqual({
        article: { ...made, ...next },
      });
      expect((await call('DELETE', `/articles/${slug}`)).status).toBe(204);
      expect((await call('GET', `/articles/${slug}`)).status).toBe(404);
      expect((await call('GET', '/articles')).body).toMatchObject({ articles: [], articlesCount: 0 });
    });

    it('makes webhook ids in the form the document gives (wh_ and 16 hex digits), read back by it', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const made = await call('POST', '/webhooks', {
          url: 'https://hooks.example.org/a',
          events: ['article.created'],
        });
        expect(made.status).toBe(201);
        ids.push(String(made.body?.id));
      }
      for (const id of ids) expect(id).toMatch(/^wh_[0-9a-f]{16}$/);
      expect(new Set(ids).size).toBe(5);
      expect((await call('GET', `/webhooks/${ids[0] ?? ''}`)).status).toBe(200);
      expect((await call('DELETE', `/webhooks/${ids[0] ?? ''}`)).status).toBe(204);
      expect((await call('GET', `/webhooks/${ids[0] ?? ''}`)).status).toBe(404);
    });

    it('merges a wrapped merge patch into the item, keeping what the server filled', async () => {
      const made = (await call('POST', '/articles', { article: draft })).body?.article as Json;
      const url = `/articles/${String(made.slug)}`;
      const patched = await call(
        'PATCH',
        url,
        { article: { title: 'Wyverns' } },
        'application/merge-patch+json',
      );
      expect(patched).toEqual({ status: 200, body: { article: { ...made, title: 'Wyverns' } } });
      expect((await call('GET', url)).body).toEqual({ article: { ...made, title: 'Wyverns' } });
      const refused = await call('PATCH', url, { article: { title: '' } }, 'application/merge-patch+json');
      expect(refused.status).toBe(422);
      expect((await call('GET', url)).body).toEqual({ article: { ...made, title: 'Wyverns' } });
    });

    it('refuses a readOnly or unknown property inside the wrapper with the documented 422', async () => {
      for (const [extra, problem] of [
        [{ createdAt: '2020-01-01T00:00:00Z' }, '/article/createdAt is assigned by the service'],
        [{ colour: 'red' }, '/article/colour is not allowed'],
      ] as const) {
        const res = await call('POST', '/articles', { article: { ...draft, ...extra } });
        expect(res).toEqual({ status: 422, body: { errors: { body: [expect.stringContaining(problem)] } } });
      }
      expect((await call('GET', '/articles')).body).toMatchObject({ articles: [] });
    });

    it('refuses an unwrapped body with the documented 422, storing nothing', async () => {
      const res = await call('POST', '/articles', draft);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: { body: [expect.stringMatching(/article/)] } });
      expect((await call('GET', '/articles')).body).toMatchObject({ articles: [] });
    });
  });
});

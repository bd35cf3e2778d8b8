import { bearer, harness, type Harness } from '../support/mock-harness';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.mock.close());
beforeEach(() => h.mock.reset());

const list = async () =>
  (await h.http.get('/v1/categories').set(bearer('ent-key'))).body as Array<{ id: number; name: string }>;
const create = (body: object) => h.http.post('/v1/categories').set(bearer('ent-key')).send(body);

describe('categories are real state', () => {
  it('starts with the seed from fixtures/seed.json', async () => {
    expect((await list()).map((c) => c.name)).toEqual(['dog', 'cat', 'rabbit']);
  });

  it('POST stores and returns 201 with a new integer id; GET lists it after the others', async () => {
    const res = await create({ name: 'hamster', description: 'Small rodents' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ id: 4, name: 'hamster', description: 'Small rodents' });
    expect(await list()).toEqual([
      expect.objectContaining({ id: 1, name: 'dog' }),
      expect.objectContaining({ id: 2, name: 'cat' }),
      expect.objectContaining({ id: 3, name: 'rabbit' }),
      { id: 4, name: 'hamster', description: 'Small rodents' },
    ]);
  });

  it('never loses or duplicates a record under concurrent creates', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => create({ name: `c${i}` })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(50);
    const listed = await list();
    expect(listed).toHaveLength(53);
    expect(new Set(listed.map((c) => c.id)).size).toBe(53);
  });

  it('a rejected request changes nothing', async () => {
    const before = await list();
    await create({ name: 5 });
    await h.http.post('/v1/categories').send({ name: 'no key' });
    expect(await list()).toEqual(before);
  });

  it('reset() returns to the seed', async () => {
    await create({ name: 'gone' });
    await h.mock.reset();
    expect((await list()).map((c) => c.name)).toEqual(['dog', 'cat', 'rabbit']);
  });

  it('POST /_mock/reset resets over HTTP', async () => {
    await create({ name: 'gone' });
    const res = await h.http.post('/_mock/reset').set('X-Mock-Admin', '1');
    expect(res.status).toBe(200);
    expect((await list()).map((c) => c.name)).toEqual(['dog', 'cat', 'rabbit']);
  });

  it('a repeated GET reuses the serialised list until a write', async () => {
    const a = await h.http.get('/v1/categories').set(bearer('ent-key'));
    const cached = h.mock.deps.listCache.get('categories');
    await h.http.get('/v1/categories').set(bearer('ent-key'));
    expect(h.mock.deps.listCache.get('categories')).toBe(cached);
    await create({ name: 'new' });
    const b = await h.http.get('/v1/categories').set(bearer('ent-key'));
    expect(h.mock.deps.listCache.get('categories')).not.toBe(cached);
    expect(b.body).toHaveLength(a.body.length + 1);
  });
});

describe('admin routes', () => {
  let guarded: Harness;
  beforeAll(async () => {
    guarded = await harness({ adminToken: 'admin-secret' });
  });
  afterAll(() => guarded.mock.close());

  it('need the admin token when one is configured', async () => {
    const denied = await guarded.http.post('/_mock/reset');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'forbidden', status: 403 });
    expect((await guarded.http.post('/_mock/reset').set(bearer('admin-secret'))).status).toBe(200);
  });

  it('are absent with --no-admin', async () => {
    const off = await harness({ admin: false });
    try {
      const res = await off.http.post('/_mock/reset');
      expect(res.status).toBe(404);
    } finally {
      await off.mock.close();
    }
  });
});

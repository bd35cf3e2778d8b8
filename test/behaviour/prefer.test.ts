/**
 * Issue 33, examples on request (Prism's conventions): `Prefer: example=NAME` answers that named example of the
 * chosen status, `Prefer: dynamic=true` values generated from the schema, both with `code=`; an unknown name is a
 * 400 naming the examples there are. On the node:http and the fetch adapter (jest.config.js FETCH_SUITES).
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, expectError, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'frontend-31.yaml');
const KEY = 'frontend-pro-key-0001';

let mock: MockServer;
let http: ReturnType<typeof request>;
beforeAll(async () => {
  mock = await createTestMock({
    specPath: SPEC,
    seedFile: null,
    clock: testClock(),
    keys: [{ key: KEY, plan: 'pro' }],
  });
  await mock.listen(0);
  http = request(mock.server);
});
afterAll(() => mock.close());

const get = (p: string, prefer?: string) => {
  const r = http.get(`/v1${p}`).set('Authorization', `Bearer ${KEY}`);
  return prefer === undefined ? r : r.set('Prefer', prefer);
};

describe('Prefer: example=NAME', () => {
  it('answers the named example of the success status', async () => {
    const cheap = await get('/quotes', 'example=cheap');
    expect(cheap.status).toBe(200);
    expect(cheap.body).toEqual([{ symbol: 'PET', price: 1.5 }]);
    const pricey = await get('/quotes', 'example="pricey"');
    expect(pricey.body).toEqual([
      { symbol: 'CAT', price: 9000 },
      { symbol: 'DOG', price: 8000 },
    ]);
  });

  it('combines with code= (the named example of that status)', async () => {
    const res = await get('/quotes', 'code=404, example=holiday');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'market_holiday', message: 'a holiday', status: 404 });
  });

  it('is a 400 in the error shape naming the examples when there is none by that name', async () => {
    const res = await get('/quotes', 'example=free');
    expectError(res, 400, 'invalid_prefer');
    expect(res.body.message).toMatch(/example=free/);
    expect(res.body.message).toMatch(/cheap, pricey/);
    const other = await get('/quotes', 'code=404; example=cheap');
    expectError(other, 400, 'invalid_prefer');
    expect(other.body.message).toMatch(/closed, holiday/);
    const none = await http.get('/v1/ping').set('Prefer', 'example=ok');
    expectError(none, 400, 'invalid_prefer');
    expect(none.body.message).toMatch(/no named example/);
  });
});

describe('Prefer: dynamic=true', () => {
  it('answers values generated from the schema, not the example', async () => {
    const plain = await get('/quotes');
    expect(plain.body).toEqual([{ symbol: 'PET', price: 1.5 }]);
    const res = await get('/quotes', 'dynamic=true');
    expect(res.status).toBe(200);
    expect(res.body).not.toEqual(plain.body);
    expect(Array.isArray(res.body)).toBe(true);
    for (const q of res.body as Array<{ symbol: unknown; price: unknown }>) {
      expect(typeof q.symbol).toBe('string');
      expect(typeof q.price).toBe('number');
    }
    const ping = await http.get('/v1/ping').set('Prefer', 'dynamic=true');
    expect(ping.status).toBe(200);
    expect(typeof ping.body.ok).toBe('boolean');
  });

  it('combines with code=', async () => {
    expect((await get('/quotes', 'code=503')).body).toEqual({
      code: 'feed_down',
      message: 'the feed is down',
      status: 503,
    });
    const res = await get('/quotes', 'code=503, dynamic=true');
    expect(res.status).toBe(503);
    expect(res.body.code).not.toBe('feed_down');
    expect(res.body).toEqual({
      code: expect.any(String),
      message: expect.any(String),
      status: expect.any(Number),
    });
  });

  it('dynamic=false changes nothing', async () => {
    expect((await get('/quotes', 'dynamic=false')).body).toEqual([{ symbol: 'PET', price: 1.5 }]);
  });
});

describe('CORS', () => {
  it('a preflight allows Prefer', async () => {
    const res = await http
      .options('/v1/quotes')
      .set('Origin', 'http://app.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization, prefer');
    expect(res.status).toBe(204);
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toMatch(/prefer/);
  });
});

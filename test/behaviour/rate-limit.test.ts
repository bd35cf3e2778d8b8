import { bearer, expectError, harness, T0, type Harness } from '../support/mock-harness';

let h: Harness;
beforeAll(async () => {
  h = await harness({ banThreshold: 5, banSeconds: 120 });
});
afterAll(() => h.mock.close());
beforeEach(async () => {
  await h.mock.reset();
  h.clock.set(T0);
});

const MINUTE = 60_000;
const nextMinute = (t: number) => (Math.floor(t / MINUTE) + 1) * MINUTE;
const get = (key = 'free-key', path = '/v1/categories') => h.http.get(path).set(bearer(key));
const spend = async (n: number, key = 'free-key') => {
  for (let i = 0; i < n; i++) await get(key);
};

describe('§8 rate-limit headers', () => {
  it('a fresh free key answers Limit 60, Remaining 59 and Reset at the end of the minute', async () => {
    const res = await get();
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
    expect(res.headers['x-ratelimit-reset']).toBe(String(nextMinute(T0) / 1000));
  });

  it('Remaining decreases by one per request', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push((await get()).headers['x-ratelimit-remaining'] as string);
    expect(seen).toEqual(['59', '58', '57', '56']);
  });

  it.each([
    ['pro-key', '300'],
    ['business-key', '1000'],
    ['ent-key', '5000'],
  ])('%s carries its plan limit %s', async (key, limit) => {
    expect((await get(key)).headers['x-ratelimit-limit']).toBe(limit);
  });

  it.each([
    ['200', () => get()],
    ['201', () => h.http.post('/v1/categories').set(bearer('free-key')).send({ name: 'x' })],
    ['400', () => h.http.post('/v1/categories').set(bearer('free-key')).send({ name: 1 })],
    ['401', () => h.http.get('/v1/categories').set(bearer('wrong'))],
    ['404', () => get('free-key', '/v1/nowhere')],
    ['404 outside /v1', () => get('free-key', '/elsewhere')],
    ['405', () => h.http.delete('/v1/categories').set(bearer('free-key'))],
    [
      '413',
      () =>
        h.http
          .post('/v1/categories')
          .set(bearer('free-key'))
          .set('Content-Type', 'application/json')
          .send('x'.repeat(1_100_000)),
    ],
    [
      '415',
      () => h.http.post('/v1/categories').set(bearer('free-key')).set('Content-Type', 'text/plain').send('x'),
    ],
  ])('every response carries the three headers: %s', async (_what, send) => {
    const res = await send();
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(res.headers[name]).toMatch(/^\d+$/);
    }
  });
});

describe('§8 over the limit', () => {
  it('the 61st request in a minute is the first 429, with Retry-After until the window resets', async () => {
    await spend(59);
    expect((await get()).status).toBe(200); // the 60th
    h.clock.advance(20_000); // 12:00:30
    const res = await get();
    expectError(res, 429, 'rate_limited');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(res.headers['retry-after']).toBe('30');
    expect(res.headers['x-ratelimit-reset']).toBe(String(nextMinute(T0) / 1000));
  });

  it('Retry-After is a whole number of seconds, at least 1', async () => {
    await spend(60);
    h.clock.set(nextMinute(T0) - 200);
    expect((await get()).headers['retry-after']).toBe('1');
  });

  it('a new minute window admits again; the day keeps counting', async () => {
    await spend(60);
    expect((await get()).status).toBe(429);
    h.clock.set(nextMinute(T0));
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('the day window binds when it has fewer requests left, and blocks until UTC midnight', async () => {
    // 1,000 a day at 60 a minute: spend 59 in each of 17 minutes (1,003 > 1,000).
    let t = T0;
    let day = '';
    for (let m = 0; m < 17; m++) {
      h.clock.set(t);
      for (let i = 0; i < 59; i++) {
        const res = await get();
        if (res.status === 429) {
          day = res.headers['retry-after'] as string;
          break;
        }
        if (m === 16 && i === 0) expect(res.headers['x-ratelimit-limit']).toBe('1000');
      }
      if (day) break;
      t = nextMinute(t) + 10_000;
    }
    const res = await get();
    expect(res.status).toBe(429);
    expect(res.headers['x-ratelimit-limit']).toBe('1000');
    const midnight = (Math.floor(T0 / 86_400_000) + 1) * 86_400_000;
    expect(res.headers['x-ratelimit-reset']).toBe(String(midnight / 1000));
    expect(Number(res.headers['retry-after'])).toBe(Math.ceil((midnight - h.clock.now()) / 1000));
    h.clock.set(midnight);
    expect((await get()).status).toBe(200);
  }, 60_000);

  it('is exact under concurrency: 100 parallel requests on a fresh free key give 60 non-429 answers', async () => {
    const results = await Promise.all(Array.from({ length: 100 }, () => get('free-key-2')));
    expect(results.filter((r) => r.status !== 429)).toHaveLength(60);
    expect(results.filter((r) => r.status === 429)).toHaveLength(40);
  });

  it('keys are limited separately', async () => {
    await spend(60);
    expect((await get('free-key')).status).toBe(429);
    expect((await get('free-key-2')).status).toBe(200);
  });

  it('requests without a valid key are limited per address with the free numbers', async () => {
    for (let i = 0; i < 60; i++)
      expect((await h.http.get('/v1/categories').set(bearer(`guess-${i}`))).status).toBe(401);
    const res = await h.http.get('/v1/categories').set(bearer('guess-61'));
    expectError(res, 429, 'rate_limited');
    // A valid key from the same address has its own budget.
    expect((await get()).status).toBe(200);
  });

  it('repeated requests while limited ban the key, with its own code and a Retry-After for the ban', async () => {
    await spend(60);
    for (let i = 0; i < 4; i++) expect((await get()).body.code).toBe('rate_limited');
    const banned = await get();
    expectError(banned, 429, 'key_banned');
    expect(banned.headers['retry-after']).toBe('120');
    // Still banned after the minute window resets...
    h.clock.set(nextMinute(T0) + 1000);
    const still = await get();
    expect(still.body.code).toBe('key_banned');
    expect(Number(still.headers['retry-after'])).toBeLessThan(120);
    // ...and free again when the ban ends.
    h.clock.set(T0 + 120_000 + 1000);
    expect((await get()).status).toBe(200);
  });
});

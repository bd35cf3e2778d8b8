import { bearer, expectError, harness, RATE_HEADERS, type Harness } from '../support/mock-harness';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.mock.close());
beforeEach(() => h.mock.reset());

describe('routing from the spec under /v1', () => {
  it.each([['/v1/nope'], ['/categories'], ['/v2/categories'], ['/v1/categories/'], ['/v1/pets'], ['/']])(
    'GET %s is 404 with the Error body',
    async (path) => {
      expectError(await h.http.get(path).set(bearer('free-key')), 404, 'not_found');
    },
  );

  it.each([
    ['delete', '/v1/categories', 'GET, POST'],
    ['put', '/v1/categories', 'GET, POST'],
    ['post', '/v1/pets/1', 'GET'],
    ['patch', '/v1/store/orders', 'GET'],
  ] as const)('%s %s is 405 with Allow: %s', async (method, path, allow) => {
    const res = await h.http[method](path).set(bearer('free-key'));
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe(allow);
  });
});

describe('§5 bearer auth on every operation', () => {
  const operations = [
    ['get', '/v1/categories'],
    ['post', '/v1/categories'],
    ['get', '/v1/pets/1'],
    ['get', '/v1/store/orders'],
  ] as const;
  const badHeaders: Array<[string, Record<string, string>]> = [
    ['no header', {}],
    ['Basic scheme', { Authorization: 'Basic ZnJlZS1rZXk6' }],
    ['empty bearer', { Authorization: 'Bearer ' }],
    ['bare scheme', { Authorization: 'Bearer' }],
    ['unknown key', { Authorization: 'Bearer not-a-key' }],
    ['key as the scheme', { Authorization: 'free-key' }],
  ];
  for (const [method, path] of operations) {
    it.each(badHeaders)(
      `${method.toUpperCase()} ${path} with %s is 401 with a Bearer challenge`,
      async (_name, headers) => {
        const res = await h.http[method](path)
          .set(headers)
          .send(method === 'post' ? { name: 'x' } : undefined);
        expectError(res, 401, 'unauthorized');
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      },
    );
  }

  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accepts the scheme written %s', async (scheme) => {
    const res = await h.http.get('/v1/categories').set('Authorization', `${scheme} free-key`);
    expect(res.status).toBe(200);
  });

  it('decides auth before the body: an unauthenticated bad body is 401, not 400', async () => {
    const res = await h.http.post('/v1/categories').set('Content-Type', 'application/json').send('{not json');
    expectError(res, 401, 'unauthorized');
  });

  it('a 401 carries the rate-limit headers of the anonymous (per address) budget', async () => {
    const res = await h.http.get('/v1/categories');
    for (const header of RATE_HEADERS) expect(res.headers[header]).toBeDefined();
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('never lets a different key pass for a valid one', async () => {
    expect((await h.http.get('/v1/categories').set(bearer('free-key '))).status).toBe(200); // trailing space trimmed
    expect((await h.http.get('/v1/categories').set(bearer('free-ke'))).status).toBe(401);
    expect((await h.http.get('/v1/categories').set(bearer('FREE-KEY'))).status).toBe(401);
  });
});

describe.each(['spec', 'prism'] as const)(
  'pets and orders (payloads not published), --example-engine %s',
  (engine) => {
    let e: Harness;
    beforeAll(async () => {
      e = await harness({ exampleEngine: engine });
    });
    afterAll(() => e.mock.close());

    it('answers the pet lookup from the example, marked deprecated', async () => {
      const res = await e.http.get('/v1/pets/42').set(bearer('free-key'));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.deprecation).toBe('true');
      expect(res.headers.sunset).toBeUndefined();
      expect(res.body).toEqual({ id: 1, name: 'Rex', category: { id: 1, name: 'dog' } });
    });

    it('answers the orders listing from the example, not deprecated', async () => {
      const res = await e.http.get('/v1/store/orders').set(bearer('free-key'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ id: 10, petId: 1, quantity: 1 }]);
      expect(res.headers.deprecation).toBeUndefined();
      for (const header of RATE_HEADERS) expect(res.headers[header]).toMatch(/^\d+$/);
    });

    it('rejects a malformed percent-encoding in the path with 400 and keeps serving', async () => {
      expectError(await e.http.get('/v1/pets/%E0%A4%A').set(bearer('free-key')), 400, 'invalid_encoding');
      expectError(await e.http.get('/v1/pets/%E0%A4%A'), 401, 'unauthorized');
      expectError(await e.http.get('/v1/%ZZ').set(bearer('free-key')), 404);
      expect((await e.http.get('/v1/pets/1').set(bearer('free-key'))).status).toBe(200);
    });
  },
);

describe('deprecation headers when configured', () => {
  let d: Harness;
  beforeAll(async () => {
    d = await harness({
      sunset: '2027-06-30T00:00:00Z',
      successorLink: 'https://api.petstore.example/v2/pets',
    });
  });
  afterAll(() => d.mock.close());

  it('sends Sunset as an HTTP date and a successor Link', async () => {
    const res = await d.http.get('/v1/pets/1').set(bearer('free-key'));
    expect(res.headers.deprecation).toBe('true');
    expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect(res.headers.link).toBe('<https://api.petstore.example/v2/pets>; rel="successor-version"');
    const other = await d.http.get('/v1/categories').set(bearer('free-key'));
    expect(other.headers.sunset).toBeUndefined();
  });
});

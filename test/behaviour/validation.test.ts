import { bearer, expectError, harness, rawRequest, type Harness } from '../support/mock-harness';

let h: Harness;
beforeAll(async () => {
  h = await harness({ seed: {} });
});
afterAll(() => h.mock.close());
beforeEach(() => h.mock.reset());

const post = (body: string, contentType: string | null = 'application/json') => {
  const req = h.http.post('/v1/categories').set(bearer('ent-key'));
  if (contentType !== null) req.set('Content-Type', contentType);
  return body === '' ? req : req.send(body);
};
const stored = async () => (await h.http.get('/v1/categories').set(bearer('ent-key'))).body as unknown[];

describe('POST /v1/categories body validation (§4: 400 with an Error body)', () => {
  it.each([
    ['a missing body', '', null, /body is required/],
    ['an empty JSON body', '', 'application/json', /body is required/],
    ['malformed JSON', '{"name": "dog"', 'application/json', /not valid JSON/],
    ['a JSON array', '[{"name":"dog"}]', 'application/json', /body must be object/],
    ['a JSON string', '"dog"', 'application/json', /body must be object/],
    ['null', 'null', 'application/json', /body must be object/],
    ['a missing name', '{"description":"no name"}', 'application/json', /\/name is required/],
    ['a numeric name', '{"name":7}', 'application/json', /\/name must be string/],
    ['a null name', '{"name":null}', 'application/json', /\/name must be string/],
    [
      'a non-string description',
      '{"name":"dog","description":false}',
      'application/json',
      /\/description must be string/,
    ],
    ['a client-sent id', '{"id":5,"name":"dog"}', 'application/json', /\/id is assigned by the service/],
    [
      'an unknown field (strict policy)',
      '{"name":"dog","colour":"brown"}',
      'application/json',
      /\/colour is not allowed/,
    ],
    [
      'an empty name (strict policy)',
      '{"name":""}',
      'application/json',
      /\/name must NOT have fewer than 1 characters/,
    ],
    [
      'a name over the length limit',
      JSON.stringify({ name: 'x'.repeat(201) }),
      'application/json',
      /\/name must NOT have more than 200/,
    ],
    [
      'a __proto__ key',
      '{"name":"dog","__proto__":{"admin":true}}',
      'application/json',
      /\/__proto__ is not allowed/,
    ],
    ['a huge number as name', '{"name":1e400}', 'application/json', /\/name must be string/],
  ])('rejects %s with a message naming the field', async (_what, body, contentType, message) => {
    const res = await post(body, contentType);
    expectError(res, 400);
    expect(res.body.message).toMatch(message);
    expect(await stored()).toEqual([]);
  });

  it('rejects bytes that are not UTF-8', async () => {
    const res = await rawRequest(h.mock.server, {
      method: 'POST',
      path: '/v1/categories',
      headers: { Authorization: 'Bearer ent-key', 'Content-Type': 'application/json' },
      body: Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_encoding', status: 400 });
    expect(await stored()).toEqual([]);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'])(
    'answers Content-Type %s with 415',
    async (contentType) => {
      expectError(await post('{"name":"dog"}', contentType), 415, 'unsupported_media_type');
    },
  );

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/merge-patch+json',
  ])('accepts Content-Type %s', async (contentType) => {
    expect((await post('{"name":"dog"}', contentType)).status).toBe(201);
  });

  it('answers a 2 MiB body with 413 and keeps serving', async () => {
    const big = JSON.stringify({ name: 'dog', description: 'x'.repeat(2 * 1024 * 1024) });
    expectError(await post(big), 413, 'payload_too_large');
    expect(await stored()).toEqual([]);
    expect((await post('{"name":"dog"}')).status).toBe(201);
  });

  it('keeps a huge integer in a description-free body from becoming an id', async () => {
    const res = await post('{"name":"dog","description":"9007199254740993"}');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 1, name: 'dog', description: '9007199254740993' });
  });
});

describe('validation policy is configurable', () => {
  let lax: Harness;
  beforeAll(async () => {
    lax = await harness({
      seed: {},
      policy: { allowUnknownFields: true, rules: {} },
    });
  });
  afterAll(() => lax.mock.close());

  it('accepts unknown fields without storing them, an empty name and a long name', async () => {
    const send = (body: unknown) =>
      lax.http
        .post('/v1/categories')
        .set(bearer('ent-key'))
        .send(body as object);
    expect((await send({ name: 'dog', colour: 'brown' })).body).toEqual({ id: 1, name: 'dog' });
    expect((await send({ name: '' })).status).toBe(201);
    expect((await send({ name: 'x'.repeat(5000) })).status).toBe(201);
    // The client-sent id stays a 400 whatever the policy: §2 says the client does not send it.
    expect((await send({ id: 9, name: 'dog' })).status).toBe(400);
  });
});

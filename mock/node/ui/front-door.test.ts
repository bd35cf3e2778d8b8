/** Issue 15: `GET /` from a browser is a small page; every other client still gets the JSON 404 Error. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse as parseYaml, stringify } from 'yaml';
import { DEFAULT_SPEC_PATH } from '../../../spec/paths';
import { harness, type Harness } from '../../../test/support/mock-harness';
import { wantsFrontDoor } from '../../../spec/pages/pages';

const CHROME = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const document = parseYaml(fs.readFileSync(DEFAULT_SPEC_PATH, 'utf8')) as {
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, unknown>;
};

/** A copy of the pet store document with some fields changed, in a temporary file. */
function variant(change: (doc: typeof document) => void): string {
  const doc = structuredClone(document);
  change(doc);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'front-door-'));
  const file = path.join(dir, 'openapi.yaml');
  fs.writeFileSync(file, stringify(doc));
  return file;
}

describe('the front door', () => {
  let h: Harness;
  let origin: string;
  beforeAll(async () => {
    h = await harness();
    origin = `http://127.0.0.1:${(h.mock.server.address() as AddressInfo).port}`;
  });
  afterAll(() => h.mock.close());

  it.each([
    ['Chrome', CHROME],
    ['Firefox', FIREFOX],
    ['plain', 'text/html'],
  ])(
    'a browser (%s Accept) gets a page naming the API and linking the reference, inspector and spec',
    async (_, accept) => {
      const res = await h.http.get('/').set('Host', new URL(origin).host).set('Accept', accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers.vary).toBe('Accept');
      expect(res.text).toContain(`<title>${document.info.title} (mock)</title>`);
      expect(res.text).toContain(document.info.version);
      expect(res.text).toContain(`<code>${origin}/v1</code>`);
      for (const href of ['/_mock/docs', '/_mock/inspector', '/openapi.yaml', '/openapi.json', '/v1'])
        expect(res.text).toContain(`href="${href}"`);
      expect(res.text).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./);
    },
  );

  it('HEAD answers the same status and type without a body', async () => {
    const res = await h.http.head('/').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text ?? '').toBe('');
  });

  it.each([
    ['no Accept', undefined],
    ['application/json', 'application/json'],
    ['*/* alone (curl, fetch)', '*/*'],
    ['text/* only', 'text/*'],
    ['text/html refused with q=0', 'text/html;q=0, application/json'],
  ])('%s gets the JSON 404 Error with the rate-limit headers', async (_, accept) => {
    const req = h.http.get('/');
    const res = await (accept === undefined ? req.unset('Accept') : req.set('Accept', accept));
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ code: 'not_found', message: expect.any(String), status: 404 });
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('other methods at / stay JSON errors, even from a browser', async () => {
    const res = await h.http.post('/').set('Accept', CHROME).send({});
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await h.http.get('/index.html').set('Accept', CHROME)).status).toBe(404);
  });

  it('leaves the inspector link out when the inspector is off', async () => {
    const off = await harness({ inspector: false });
    try {
      const res = await off.http.get('/').set('Accept', 'text/html');
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('/_mock/inspector');
      expect(res.text).toContain('href="/_mock/docs"');
    } finally {
      await off.mock.close();
    }
  });
});

describe('the front door of another document', () => {
  it('says that document title (escaped) and base path, and nothing of the pet store', async () => {
    const specPath = variant((doc) => {
      doc.info.title = 'Books <API> & "more"';
      doc.info.version = '2.3.4';
    });
    const h = await harness({ specPath, basePath: '/library/v2', seedFile: null });
    try {
      const res = await h.http.get('/').set('Host', 'mock.test:8080').set('Accept', 'text/html');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Books &#60;API&#62; &#38; &#34;more&#34;');
      expect(res.text).not.toContain('<API>');
      expect(res.text).toContain('<code>http://mock.test:8080/library/v2</code>');
      expect(res.text).toContain('href="/library/v2"');
      expect(res.text).not.toMatch(/pet|categor/i);
    } finally {
      await h.mock.close();
    }
  });

  it('does not trust a Host header that is not a host: the base path alone is shown', async () => {
    const h = await harness();
    try {
      const res = await h.http.get('/').set('Host', 'evil"><script>x</script>').set('Accept', 'text/html');
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('<script>x');
      expect(res.text).toContain('<code>/v1</code>');
    } finally {
      await h.mock.close();
    }
  });

  it('keeps an operation the document itself has at /', async () => {
    const specPath = variant((doc) => {
      doc.servers = [{ url: 'http://localhost' }];
      doc.paths['/'] = {
        get: {
          operationId: 'home',
          security: [],
          responses: {
            '200': {
              description: 'home',
              content: { 'text/html': { schema: { type: 'string' }, example: '<p>home</p>' } },
            },
          },
        },
      };
    });
    const h = await harness({ specPath, seedFile: null });
    try {
      const res = await h.http.get('/').set('Accept', 'text/html');
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('/_mock/docs');
    } finally {
      await h.mock.close();
    }
  });
});

describe('wantsFrontDoor', () => {
  it.each([
    ['GET', '/', CHROME, true],
    ['HEAD', '/', 'text/html', true],
    ['GET', '/', 'TEXT/HTML; q=0.5', true],
    ['GET', '/', ['application/json', 'text/html'], true],
    ['GET', '/', 'text/html;q=0', false],
    ['GET', '/', '*/*', false],
    ['GET', '/', 'application/json', false],
    ['GET', '/', undefined, false],
    ['POST', '/', 'text/html', false],
    ['GET', '/v1', 'text/html', false],
    ['GET', '//', 'text/html', false],
    ['GET', '/', `${'x/y,'.repeat(2000)}text/html`, false],
  ] as const)('%s %s Accept %j: %s', (method, p, accept, expected) => {
    expect(wantsFrontDoor(method, p, accept as string | string[] | undefined)).toBe(expected);
  });
});

/** The validation proxy in front of real servers: the mock (faithful), a one-fault server, a down and a slow one. */
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { createMockServer, type MockServer } from '../../mock/node/index';
import { createProxyServer, type ProxyOptions, type ProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { KEYS } from '../support/mock-harness';

let spec: LoadedSpec;
const open: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  spec = await loadSpecOrThrow();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const AUTH = { authorization: 'Bearer pro-key' };

async function proxyTo(
  upstream: string,
  extra: Partial<ProxyOptions> = {},
): Promise<{ proxy: ProxyServer; base: string }> {
  const proxy = createProxyServer({
    spec,
    upstream: new URL(upstream),
    mode: 'report',
    timeoutMs: 2000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
    ...extra,
  });
  open.push(proxy);
  return { proxy, base: await proxy.listen(0, '127.0.0.1') };
}

/** A server the test writes: answers every request with `answer`, counting requests. */
async function fakeUpstream(answer: http.RequestListener): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push({
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, hits: () => hits };
}

const rateHeaders = () => ({
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 30),
});

describe('report mode', () => {
  let mock: MockServer;
  beforeEach(async () => {
    mock = await createMockServer({ keys: KEYS });
    open.push(mock);
  });

  it('finds no response-side violation on the faithful server over a lifecycle with bad input', async () => {
    const upstream = await mock.listen(0);
    const { proxy, base } = await proxyTo(upstream);
    const list = await fetch(`${base}/categories`, { headers: AUTH });
    expect(list.status).toBe(200);
    expect(list.headers.get('contract-violations')).toBe('0');
    const created = await fetch(`${base}/categories`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":"ferret"}',
    });
    expect(created.status).toBe(201);
    const bad = await fetch(`${base}/categories`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":7}',
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('contract-violations')).toBe('1');
    const anonymous = await fetch(`${base}/categories`);
    expect(anonymous.status).toBe(401);
    const snapshot = proxy.judge.snapshot();
    expect(snapshot.exchanges).toBe(4);
    expect(snapshot.violations.filter((v) => v.side === 'response')).toEqual([]);
    expect(snapshot.violations.map((v) => v.rule).sort()).toEqual(['request.body', 'request.credentials']);
  });

  it('lists the violations on GET /_mock/violations, without the credential', async () => {
    const upstream = await mock.listen(0);
    const { base } = await proxyTo(upstream);
    await fetch(`${base}/categories`, {
      method: 'POST',
      headers: { authorization: 'Bearer secret-key-123', 'content-type': 'text/plain' },
      body: 'x',
    });
    const res = await fetch(`${new URL(base).origin}/_mock/violations`);
    const text = await res.text();
    expect(text).not.toContain('secret-key-123');
    const body = JSON.parse(text) as {
      exchanges: number;
      violations: { rule: string; operationId: string; side: string }[];
    };
    expect(body.exchanges).toBe(1);
    expect(body.violations[0]).toMatchObject({
      side: 'request',
      rule: 'request.media-type',
      operationId: 'createCategory',
    });
  });
});

describe('a one-fault server', () => {
  it.each([
    [
      'wrong content type',
      (res: http.ServerResponse) =>
        res.writeHead(200, { 'content-type': 'text/plain', ...rateHeaders() }).end('[]'),
      'response.json',
    ],
    [
      'schema violation',
      (res: http.ServerResponse) =>
        res.writeHead(200, { 'content-type': 'application/json', ...rateHeaders() }).end('[{"id":"one"}]'),
      'response.body-schema',
    ],
    [
      'missing required header',
      (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
      'response.headers',
    ],
    [
      'wrong status',
      (res: http.ServerResponse) =>
        res
          .writeHead(418, { 'content-type': 'application/json', ...rateHeaders() })
          .end('{"code":"x","message":"y"}'),
      'response.documented-status',
    ],
  ])('%s is reported with its rule and operation', async (_name, answer, rule) => {
    const up = await fakeUpstream((_req, res) => answer(res));
    const { proxy, base } = await proxyTo(up.url);
    const res = await fetch(`${base}/categories`, { headers: AUTH });
    expect(Number(res.headers.get('contract-violations'))).toBeGreaterThan(0);
    expect(proxy.judge.snapshot().violations).toContainEqual(
      expect.objectContaining({ side: 'response', rule, operationId: 'listCategories' }),
    );
  });

  it("an undocumented path answered 200 and an accepted invalid request are the server's fault", async () => {
    const up = await fakeUpstream((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json', ...rateHeaders() }).end('{"id":1,"name":"x"}'),
    );
    const { proxy, base } = await proxyTo(up.url);
    await fetch(`${base}/nowhere`, { headers: AUTH });
    await fetch(`${base}/categories`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{}',
    });
    const rules = proxy.judge
      .snapshot()
      .violations.filter((v) => v.side === 'response')
      .map((v) => `${v.rule} ${v.operationId ?? '-'}`);
    expect(rules).toContain('response.accepted-invalid -');
    expect(rules).toContain('response.accepted-invalid createCategory');
  });
});

describe('enforce mode', () => {
  it('answers a request-side violation itself and replaces a bad answer with 502', async () => {
    const up = await fakeUpstream((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('nope'),
    );
    const { base } = await proxyTo(up.url, { mode: 'enforce' });
    const anonymous = await fetch(`${base}/categories`);
    expect(anonymous.status).toBe(401);
    expect(up.hits()).toBe(0);
    const missing = await fetch(`${base}/nowhere`, { headers: AUTH });
    expect(missing.status).toBe(404);
    const wrongMethod = await fetch(`${base}/categories`, { method: 'DELETE', headers: AUTH });
    expect(wrongMethod.status).toBe(405);
    expect(up.hits()).toBe(0);
    const replaced = await fetch(`${base}/categories`, { headers: AUTH });
    expect(replaced.status).toBe(502);
    expect(replaced.headers.get('content-type')).toMatch(/json/);
    expect(((await replaced.json()) as { message: string }).message).toContain('response.json');
  });
});

describe('upstream trouble', () => {
  it('an unreachable upstream is 502 in the error shape', async () => {
    const up = await fakeUpstream(() => undefined);
    const url = up.url;
    await Promise.all(open.splice(0).map((s) => s.close()));
    const { base } = await proxyTo(url);
    const res = await fetch(`${base}/categories`, { headers: AUTH });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { code: string }).code).toBe('bad_gateway');
  });

  it('a slow upstream is 504 after the timeout', async () => {
    const up = await fakeUpstream(() => undefined);
    const { base } = await proxyTo(up.url, { timeoutMs: 150 });
    const started = Date.now();
    const res = await fetch(`${base}/categories`, { headers: AUTH });
    expect(res.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('compressed answers (a browser asks for gzip or br, most servers answer so)', () => {
  const answerWith = (encoding: 'gzip' | 'br', items: unknown) => {
    const raw = Buffer.from(JSON.stringify(items));
    const body = encoding === 'gzip' ? zlib.gzipSync(raw) : zlib.brotliCompressSync(raw);
    return (_req: http.IncomingMessage, res: http.ServerResponse) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': encoding,
          ...rateHeaders(),
        })
        .end(body);
  };

  it.each(['gzip', 'br'] as const)(
    'a valid %s list is judged clean and passed on as it came',
    async (encoding) => {
      const items = [{ id: 1, name: 'dogs' }];
      const upstream = await fakeUpstream(answerWith(encoding, items));
      const { proxy, base } = await proxyTo(upstream.url);
      const res = await fetch(`${base}/categories`, { headers: { ...AUTH, 'accept-encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(await res.json()).toEqual(items); // fetch decodes it: the bytes arrived as the upstream sent them
      expect(res.headers.get('contract-violations')).toBe('0');
      expect(proxy.judge.snapshot().violations).toEqual([]);
    },
  );

  it('an invalid gzip list is found invalid (the judge reads the decoded body)', async () => {
    const upstream = await fakeUpstream(answerWith('gzip', [{ id: 'one' }]));
    const { proxy, base } = await proxyTo(upstream.url);
    const res = await fetch(`${base}/categories`, { headers: { ...AUTH, 'accept-encoding': 'gzip' } });
    await res.arrayBuffer();
    expect(res.headers.get('contract-violations')).not.toBe('0');
    expect(proxy.judge.snapshot().violations.map((v) => v.rule)).toContain('response.body-schema');
  });

  it('a corrupt gzip body is passed on and said not judged, not reported as a schema violation', async () => {
    const upstream = await fakeUpstream((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', ...rateHeaders() })
        .end('not gzip at all'),
    );
    const { proxy, base } = await proxyTo(upstream.url);
    const res = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${base}/categories`, { headers: AUTH }, resolve),
    );
    res.resume();
    expect(res.headers['contract-judged']).toMatch(/cannot be decoded/);
    expect(proxy.judge.snapshot().violations.filter((v) => v.rule.startsWith('response.body'))).toEqual([]);
  });
});

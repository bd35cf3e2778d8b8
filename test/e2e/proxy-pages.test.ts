/**
 * The validation proxy's pages: the front door, the API reference, the document and an inspector that shows
 * each exchange with its verdict, live (headless Chromium). None of them is forwarded upstream.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockServer, type MockServer } from '../../mock/node/index';
import { createProxyServer, type ProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow } from '../../spec/load';
import { KEYS } from '../support/mock-harness';
import { describeBrowser, launchBrowser, type BrowserSession } from './browser';

let mock: MockServer;
let proxy: ProxyServer;
let origin: string;
let base: string;
let upstreamHits = 0;
let counter: http.Server;

beforeAll(async () => {
  mock = await createMockServer({ keys: KEYS });
  const mockBase = await mock.listen(0, '127.0.0.1');
  // Counts what reaches the upstream, then hands it to the mock.
  counter = http.createServer((req, res) => {
    upstreamHits++;
    const target = new URL(req.url ?? '/', new URL(mockBase).origin);
    const up = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
  const upstream = `http://127.0.0.1:${(counter.address() as AddressInfo).port}/v1`;
  proxy = createProxyServer({
    spec: await loadSpecOrThrow(),
    upstream: new URL(upstream),
    mode: 'report',
    timeoutMs: 5000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  base = await proxy.listen(0, '127.0.0.1');
  origin = new URL(base).origin;
});
afterAll(async () => {
  await proxy.close();
  counter.closeAllConnections();
  await new Promise((r) => counter.close(r));
  await mock.close();
});

describe('the proxy serves the pages itself', () => {
  it.each([
    ['/', 'text/html', /validation proxy in front of <code>http:\/\/127\.0\.0\.1:\d+\/v1<\/code>/],
    ['/_mock/docs', 'text/html', /swagger-ui-bundle\.js/],
    ['/_mock/inspector', 'text/html', /proxy-inspector\.js/],
    ['/_mock/ui/proxy-inspector.js', 'text/javascript', /\/_mock\/exchanges/],
    ['/openapi.json', 'application/json', /"openapi"/],
    ['/openapi.yaml', 'application/yaml', /openapi:/],
  ])('GET %s', async (path, type, body) => {
    const hits = upstreamHits;
    const res = await fetch(`${origin}${path}`, { headers: { accept: 'text/html,*/*' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    expect(await res.text()).toMatch(body);
    expect(upstreamHits).toBe(hits);
  });

  it('lists each exchange with its verdict on /_mock/exchanges, the query left out', async () => {
    await (
      await fetch(`${base}/categories?token=abc`, { headers: { authorization: 'Bearer pro-key' } })
    ).text();
    const bad = {
      method: 'POST',
      headers: { authorization: 'Bearer pro-key', 'content-type': 'application/json' },
    };
    await (await fetch(`${base}/categories`, { ...bad, body: '{"name":7}' })).text();
    const { exchanges } = (await (await fetch(`${origin}/_mock/exchanges`)).json()) as {
      exchanges: Array<{ method: string; path: string; status: number; violations: Array<{ rule: string }> }>;
    };
    const last = exchanges.slice(-2);
    expect(last.map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/v1/categories', 200],
      ['POST', '/v1/categories', 400],
    ]);
    expect(last[0]?.violations).toEqual([]);
    expect(last[1]?.violations.map((v) => v.rule)).toEqual(['request.body']);
    expect(JSON.stringify(exchanges)).not.toContain('token=abc');
  });
});

describeBrowser('the proxy inspector in Chromium', () => {
  let browser: BrowserSession;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => browser?.close());

  it('shows new exchanges with their verdicts without a reload', async () => {
    const { page } = browser;
    await page.goto(`${origin}/_mock/inspector`);
    await page.locator('#status').filter({ hasText: 'exchanges judged' }).waitFor();
    const body = {
      method: 'POST',
      headers: { authorization: 'Bearer pro-key', 'content-type': 'text/plain' },
    };
    await (await fetch(`${base}/categories`, { ...body, body: 'x' })).text();
    const row = page.locator('#exchanges tbody tr').first();
    await row.filter({ hasText: 'request.media-type' }).waitFor({ timeout: 5000 });
    expect(await row.textContent()).toMatch(/POST.*\/v1\/categories.*415.*1 violation/);
    await page.locator('#violations tbody tr').filter({ hasText: 'request.media-type' }).first().waitFor();
  }, 30_000);
});

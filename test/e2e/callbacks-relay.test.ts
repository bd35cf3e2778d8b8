/**
 * Issue 33, the proxy judges callbacks that pass through it (`--callbacks-relay`): a client's request names its
 * own receiver as the callback URL; the proxy rewrites it to a relay path of its own, the upstream (the mock, or
 * a stub that sends a bad callback) calls the relay, and the proxy judges the callback with spec/callbacks.ts and
 * forwards it to the client's receiver. Real servers on 127.0.0.1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createMockServer, type MockServer } from '../../mock/node';
import { loadSpecOrThrow } from '../../spec/load';
import { createProxyServer, type ProxyServer } from '../../proxy/proxy-server';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'frontend-31.yaml');
const KEY = 'relay-key-0123456789';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The client's own receiver: records what arrives, answers 200 (`received` resolves at the `n`th). */
async function receiver(n: number) {
  const got: Array<{ method: string; url: string; body: string }> = [];
  let done: () => void = () => undefined;
  const received = new Promise<void>((r) => (done = r));
  const origin = await listen(
    http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString() });
        res.writeHead(200).end('thanks');
        if (got.length >= n) done();
      });
    }),
  );
  return { got, origin, received };
}

async function proxyTo(upstream: string): Promise<{ proxy: ProxyServer; base: string }> {
  const spec = await loadSpecOrThrow(SPEC);
  const proxy = createProxyServer({
    spec,
    upstream: new URL(upstream),
    mode: 'report',
    timeoutMs: 5000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
    callbacksRelay: 'self',
  });
  const base = await proxy.listen(0, '127.0.0.1');
  closers.push(() => proxy.close());
  return { proxy, base };
}

const subscribe = (base: string, callbackUrl: string, audit: string) =>
  fetch(`${base}/subscriptions?audit=${encodeURIComponent(audit)}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ topic: 'prices', callbackUrl }),
  });

const callbackViolations = (proxy: ProxyServer) =>
  proxy.judge.snapshot().violations.filter((v) => v.rule.startsWith('callbacks.'));

it('relays the mock’s callbacks to the client’s receiver, judged clean on the way', async () => {
  const mock: MockServer = await createMockServer({
    specPath: SPEC,
    seedFile: null,
    keys: [{ key: KEY, plan: 'business' }],
    quiet: true,
  });
  await mock.listen(0);
  closers.push(() => mock.close());
  const { proxy, base } = await proxyTo(`http://127.0.0.1:${(mock.server.address() as AddressInfo).port}/v1`);
  const hooks = await receiver(2);
  const res = await subscribe(base, `${hooks.origin}/hooks/prices`, `${hooks.origin}/audit`);
  expect(res.status).toBe(201);
  // The client reads back the URL it sent: the answer is the upstream's, untouched.
  await hooks.received;
  await mock.deps.callbacks?.idle();
  const sent = mock.deps.callbacks?.list() ?? [];
  // The mock called the proxy's relay, not the receiver directly; the proxy forwarded both.
  expect(
    sent.map((s) => [s.name, new URL(s.url ?? '').pathname.startsWith('/_mock/relay/'), s.outcome]).sort(),
  ).toEqual([
    ['onAudit', true, 'sent'],
    ['onEvent', true, 'sent'],
  ]);
  expect(hooks.got.map((g) => [g.method, g.url.replace(/\d+$/, 'N')]).sort()).toEqual([
    ['POST', '/hooks/prices'],
    ['PUT', '/audit/audits/N'],
  ]);
  expect(JSON.parse(hooks.got.find((g) => g.method === 'POST')?.body ?? '{}')).toMatchObject({
    topic: 'prices',
  });
  expect(callbackViolations(proxy)).toEqual([]);
  expect(
    proxy.judge
      .report(base)
      .rules.filter((r) => r.id.startsWith('callbacks.'))
      .map((r) => r.status),
  ).toEqual(['pass', 'pass', 'pass']);
  // A relay path the proxy never handed out is refused, and a finding.
  const stray = await fetch(`${new URL(base).origin}/_mock/relay/${'0'.repeat(32)}`, {
    method: 'POST',
    body: '{}',
  });
  expect(stray.status).toBe(404);
  expect(callbackViolations(proxy).map((v) => v.rule)).toEqual(['callbacks.undocumented']);
});

it('an upstream that sends an invalid callback body or the wrong method: findings, still forwarded', async () => {
  const upstream = await listen(
    http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
          callbackUrl?: string;
          topic?: string;
        };
        const audit = new URL(req.url ?? '/', 'http://x').searchParams.get('audit') ?? '';
        res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 1, ...body }));
        const headers = { 'Content-Type': 'application/json' };
        void fetch(body.callbackUrl ?? '', {
          method: 'POST',
          headers,
          body: JSON.stringify({ subscriptionId: 'one', topic: body.topic, kind: 'created' }),
        })
          .then(() =>
            fetch(`${audit}/audits/1`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ subscriptionId: 1, topic: 't' }),
            }),
          )
          .catch(() => undefined);
      });
    }),
  );
  const { proxy, base } = await proxyTo(`${upstream}/v1`);
  const hooks = await receiver(2);
  expect((await subscribe(base, `${hooks.origin}/hooks`, `${hooks.origin}/audit`)).status).toBe(201);
  await hooks.received;
  const found = callbackViolations(proxy);
  expect(found.map((v) => v.rule).sort()).toEqual([
    'callbacks.body-schema',
    'callbacks.method',
    'callbacks.undocumented',
  ]);
  expect(found.find((v) => v.rule === 'callbacks.body-schema')?.message).toMatch(
    /\/subscriptionId must be integer/,
  );
  expect(found.every((v) => v.side === 'response' && v.operationId === 'createSubscription')).toBe(true);
  expect(proxy.judge.responseViolations()).toBeGreaterThanOrEqual(3);
  // The reports (JUnit, JSON, HTML) carry them as failures of the operation that named the callback.
  const report = proxy.judge.report(upstream);
  expect(report.rules.filter((r) => r.id.startsWith('callbacks.')).map((r) => [r.id, r.status])).toEqual([
    ['callbacks.method createSubscription', 'fail'],
    ['callbacks.body-schema createSubscription', 'fail'],
    ['callbacks.undocumented createSubscription', 'fail'],
  ]);
});

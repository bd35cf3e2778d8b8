/**
 * The proxy in front of a second document of another shape (library-31: integer ids, readOnly and writeOnly
 * fields, a 204 delete, problem errors): the mock serving it is the faithful server; a front the test writes
 * injects one stateful fault at a time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createMockServer } from '../../mock/node/index';
import { createProxyServer, type ProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { KEYS } from '../support/mock-harness';

const LIBRARY = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'library-31.yaml');
const AUTH = { authorization: 'Bearer pro-key', 'content-type': 'application/json' };
let spec: LoadedSpec;
const open: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  spec = await loadSpecOrThrow(LIBRARY);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** What a fault does to one request: send it elsewhere, answer it without forwarding, or edit the answer. */
interface Fault {
  path?: (method: string, path: string) => string;
  answer?: (method: string, path: string, body: string) => { status: number; body: string } | undefined;
  edit?: (method: string, path: string, json: unknown) => unknown;
}

/** The faithful mock of the library, behind an optional fault, behind the proxy; the proxy's base URL. */
async function library(fault: Fault = {}): Promise<{ proxy: ProxyServer; base: string }> {
  const mock = await createMockServer({ specPath: LIBRARY, keys: KEYS, seed: {} });
  open.push(mock);
  const upstream = new URL(await mock.listen(0));
  const front = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const body = Buffer.concat(chunks).toString();
      const canned = fault.answer?.(method, req.url ?? '/', body);
      if (canned)
        return void res.writeHead(canned.status, { 'content-type': 'application/json' }).end(canned.body);
      const target = new URL(fault.path?.(method, req.url ?? '/') ?? req.url ?? '/', upstream.origin);
      const up = http.request(target, { method, headers: { ...req.headers, host: upstream.host } }, (r) => {
        const parts: Buffer[] = [];
        r.on('data', (c: Buffer) => parts.push(c));
        r.on('end', () => {
          let text = Buffer.concat(parts).toString();
          if (fault.edit && text) text = JSON.stringify(fault.edit(method, req.url ?? '/', JSON.parse(text)));
          const headers = { ...r.headers, 'content-length': String(Buffer.byteLength(text)) };
          res.writeHead(r.statusCode ?? 500, headers).end(text);
        });
      });
      up.end(body);
    });
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  open.push({ close: () => new Promise((r) => (front.closeAllConnections(), front.close(() => r()))) });
  const proxy = createProxyServer({
    spec,
    upstream: new URL(`http://127.0.0.1:${(front.address() as AddressInfo).port}${upstream.pathname}`),
    mode: 'report',
    timeoutMs: 2000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  open.push(proxy);
  return { proxy, base: await proxy.listen(0, '127.0.0.1') };
}

/** A lifecycle: create two, list, read, replace, read, delete, read, list; plus bad input. */
async function lifecycle(base: string): Promise<void> {
  const send = (method: string, p: string, body?: unknown) =>
    fetch(`${base}${p}`, {
      method,
      headers: AUTH,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const a = (await (await send('POST', '/books', { title: 'Dune' })).json()) as { id: number };
  const b = (await (await send('POST', '/books', { title: 'Emma' })).json()) as { id: number };
  await send('GET', '/books');
  await send('GET', `/books/${a.id}`);
  await send('PUT', `/books/${a.id}`, { title: 'Dune Messiah' });
  await send('GET', `/books/${a.id}`);
  await send('DELETE', `/books/${b.id}`);
  await send('GET', `/books/${b.id}`);
  await send('POST', '/books', { title: '' });
  await send('POST', '/users', { name: 'Ann', password: 'hunter22' });
}

const responseRules = (proxy: ProxyServer) =>
  proxy.judge
    .snapshot()
    .violations.filter((v) => v.side === 'response')
    .map((v) => `${v.rule} ${v.operationId ?? '-'}`);

it('the faithful server shows no response-side violation over a lifecycle', async () => {
  const { proxy, base } = await library();
  await lifecycle(base);
  expect(responseRules(proxy)).toEqual([]);
  expect(proxy.judge.snapshot().violations.map((v) => v.rule)).toContain('request.body');
});

const itemPath = /^(\/v2\/books\/)(\d+)$/;
it.each<[string, Fault, string]>([
  [
    'a read returning another item',
    {
      path: (m, p) =>
        m === 'GET' && itemPath.test(p)
          ? p.replace(itemPath, (_s, h: string, id: string) => `${h}${Number(id) + 1}`)
          : p,
    },
    'state.read-returns-item getBook',
  ],
  [
    'a delete that deletes nothing',
    { answer: (m) => (m === 'DELETE' ? { status: 204, body: '' } : undefined) },
    'state.deleted-gone getBook',
  ],
  [
    'a list missing a create',
    {
      edit: (m, p, json) =>
        m === 'GET' && p === '/v2/books' && Array.isArray(json) ? json.slice(0, -1) : json,
    },
    'state.created-listed listBooks',
  ],
  [
    'an ignored PUT',
    {
      answer: (m, _p, body) =>
        m === 'PUT'
          ? {
              status: 200,
              body: JSON.stringify({ ...JSON.parse(body), id: 1, createdAt: '2026-01-01T00:00:00Z' }),
            }
          : undefined,
    },
    'state.update-reflected getBook',
  ],
  [
    'a writeOnly field answered',
    {
      edit: (m, p, json) =>
        m === 'POST' && p === '/v2/users' ? { ...(json as object), password: 'x' } : json,
    },
    'response.body-schema createUser',
  ],
])('%s is reported with its rule and operation', async (_name, fault, expected) => {
  const { proxy, base } = await library(fault);
  await lifecycle(base);
  expect(responseRules(proxy)).toContain(expected);
});

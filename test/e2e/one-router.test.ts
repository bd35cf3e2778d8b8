/**
 * One router for the three tools (issue 29): a document listing `/items/{id}` before `/items/search` (and a
 * required header parameter) gets the same verdict from the mock, the proxy's judge and the runner's client.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '../../conformance/send/client';
import { createMockServer, type MockServer } from '../../mock/node/index';
import { createProxyServer, type ProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { inferResources } from '../../spec/resources';
import { KEYS } from '../support/mock-harness';

const DOCUMENT = `
openapi: 3.1.0
info: { title: routes, version: '1' }
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer } }
      responses:
        '200':
          description: one item
          content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } }
        '404':
          description: none
          content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } }
  /items/search:
    get:
      operationId: searchItems
      responses:
        '200':
          description: the items found
          content:
            application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Item' } } }
  /reports:
    parameters:
      - { name: X-Tenant, in: header, required: true, schema: { type: integer, minimum: 1 } }
    post:
      operationId: createReport
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } }
      responses:
        '201':
          description: created
          content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } }
        '400':
          description: a bad request
          content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } }
    get:
      operationId: listReports
      responses:
        '200':
          description: the reports
          content:
            application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Item' } } }
        '400':
          description: a bad request
          content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } }
components:
  schemas:
    Item:
      type: object
      required: [id, name]
      properties: { id: { type: integer }, name: { type: string } }
    Error:
      type: object
      required: [code, message]
      properties: { code: { type: string }, message: { type: string } }
`;

let spec: LoadedSpec;
let mock: MockServer;
let proxy: ProxyServer;
let mockBase: string;
let proxyBase: string;

beforeAll(async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'one-router-')), 'routes.yaml');
  fs.writeFileSync(file, DOCUMENT);
  spec = await loadSpecOrThrow(file);
  mock = await createMockServer({ specPath: file, keys: KEYS, seed: {} });
  mockBase = await mock.listen(0);
  proxy = createProxyServer({
    spec,
    upstream: new URL(mockBase),
    mode: 'enforce',
    timeoutMs: 2000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  proxyBase = await proxy.listen(0, '127.0.0.1');
});

afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

it('routes GET /items/search to searchItems in the mock, the proxy and the runner', async () => {
  expect.hasAssertions();
  // The mock answers the search, not getItem's 400 for a non-integer id.
  const direct = await fetch(`${mockBase}/items/search`);
  expect(direct.status).toBe(200);
  expect(Array.isArray(await direct.json())).toBe(true);
  // The proxy's judge finds no request-side problem, so enforce mode forwards it.
  const judged = proxy.judge.request({ method: 'GET', url: '/items/search', headers: {} });
  expect(judged.route.op?.operationId).toBe('searchItems');
  expect(judged.problems).toEqual([]);
  const through = await fetch(`${proxyBase}/items/search`);
  expect(through.status).toBe(200);
  // The runner records the exchange against the same operation.
  const model = inferResources(spec);
  if (!model.ok) throw new Error(model.error);
  const client = createClient({
    target: mockBase,
    key: 'unused',
    spec,
    model: model.model,
    timeoutMs: 2000,
    maxWaitMs: 0,
    reserve: 0,
  });
  const sent = await client.send({ method: 'GET', path: '/items/search', auth: { use: 'none' } });
  expect(sent.kind).toBe('response');
  expect(client.exchanges[0]?.operationId).toBe('searchItems');
});

it('gives a templated path the same operation and the same refusal everywhere (the documented 404)', async () => {
  const judged = proxy.judge.request({ method: 'GET', url: '/items/abc', headers: {} });
  expect(judged.route.op?.operationId).toBe('getItem');
  // getItem documents 404 and no 400: a path value the server cannot resolve is its 404, in all three.
  expect(judged.problems.map((p) => p.status)).toEqual([404]);
  expect((await fetch(`${mockBase}/items/abc`)).status).toBe(404);
  expect((await fetch(`${proxyBase}/items/abc`)).status).toBe(404);
});

it('refuses a missing or invalid required header parameter with 400 in the mock and the judge alike', async () => {
  const cases: Record<string, string>[] = [{}, { 'x-tenant': 'acme' }, { 'x-tenant': '0' }];
  for (const headers of cases) {
    const judged = proxy.judge.request({ method: 'GET', url: '/reports', headers });
    expect(judged.problems.map((p) => [p.rule, p.status])).toEqual([['request.parameters', 400]]);
    const direct = await fetch(`${mockBase}/reports`, { headers });
    expect(direct.status).toBe(400);
    const body = (await direct.json()) as { code?: string; message?: string };
    expect(body.code).toBe('invalid_request');
    expect(body.message).toMatch(/header parameter X-Tenant/);
    expect((await fetch(`${proxyBase}/reports`, { headers })).status).toBe(400);
  }
  const ok = { 'x-tenant': '7' };
  expect(proxy.judge.request({ method: 'GET', url: '/reports', headers: ok }).problems).toEqual([]);
  expect((await fetch(`${mockBase}/reports`, { headers: ok })).status).toBe(200);
  expect((await fetch(`${proxyBase}/reports`, { headers: ok })).status).toBe(200);
});

it('answers a method the path does not document 405 in the mock and the judge alike', async () => {
  const judged = proxy.judge.request({ method: 'DELETE', url: '/items/search', headers: {} });
  expect(judged.problems.map((p) => [p.rule, p.status])).toEqual([['request.method', 405]]);
  const direct = await fetch(`${mockBase}/items/search`, { method: 'DELETE' });
  expect(direct.status).toBe(405);
  expect(direct.headers.get('allow')).toBe('GET');
});

it('answers the media type before a parameter (415 over 400) in the mock and the judge alike', async () => {
  const headers = { 'content-type': 'text/plain', 'x-tenant': 'acme' };
  const judged = proxy.judge.request({ method: 'POST', url: '/reports', headers, body: 'x' });
  expect(judged.problems.map((p) => p.status)).toEqual([415, 400]);
  const init = { method: 'POST', headers, body: 'x' };
  expect((await fetch(`${mockBase}/reports`, init)).status).toBe(415);
  expect((await fetch(`${proxyBase}/reports`, init)).status).toBe(415);
});

/**
 * One router for the three tools (issue 29): a document listing `/items/{id}` before `/items/search` (and a
 * required header parameter) gets the same verdict from the mock, the proxy's judge and the runner's client.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parameterCases, parametersCheck } from '../../conformance/fuzz/parameters';
import { seededRandom } from '../../conformance/send/check-context';
import { createClient } from '../../conformance/send/client';
import { seenValues } from '../../conformance/send/seen-values';
import type { RunContext } from '../../conformance/send/check-context';
import { bodyCheck, expectedRefusal } from '../../conformance/build/bodies';
import { bodyCases } from '../../conformance/generate/body-cases';
import { requestBodiesCheck } from '../../conformance/probes/request-bodies';
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
  /notes:
    post:
      operationId: createNote
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } }
      responses:
        '201':
          description: created
          content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } }
        '422':
          description: a body that is not a note
          content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } }
        4XX:
          description: any other refusal
          content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } }
  /pings:
    post:
      operationId: sendPing
      responses:
        '204': { description: pinged }
        4XX:
          description: a refusal
          content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } }
components:
  schemas:
    Note:
      type: object
      required: [text]
      properties: { id: { type: integer, readOnly: true }, text: { type: string } }
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
  expect(sent.kind === 'response' && sent.exchange.operationId).toBe('searchItems');
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

it('gives the runner the same verdict on a required header: its negative cases expect the mock’s status', async () => {
  const op = spec.byId.get('listReports');
  if (!op) throw new Error('listReports is missing');
  const cases = parameterCases(op, seededRandom(3), '/reports');
  const labels = cases.map((c) => c.label);
  expect(labels).toContain('header X-Tenant missing (required)');
  expect(labels.filter((l) => l.startsWith('header X-Tenant: ')).length).toBeGreaterThan(1);
  for (const c of cases) {
    const direct = await fetch(`${mockBase}/reports`, { headers: c.headers });
    // Node hands the proxy its headers by lower-cased name.
    const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const judged = proxy.judge.request({ method: 'GET', url: '/reports', headers });
    if (c.expect === 'reject') {
      // The status the runner expects is the mock's answer and the judge's finding.
      expect([c.label, direct.status]).toEqual([c.label, c.status]);
      expect(judged.problems.map((p) => [p.rule, p.status])).toEqual([['request.parameters', c.status]]);
    } else {
      expect([c.label, direct.status]).toEqual([c.label, 200]);
      expect(judged.problems).toEqual([]);
    }
  }
  // Sent by the runner's check itself, every case gets the answer it expects.
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
  const check = parametersCheck(op, {
    maxExamples: 10,
    deadline: Date.now() + 30_000,
    failuresDir: null,
    target: mockBase,
    seed: 3,
  });
  const findings = await check.run({
    spec,
    client,
    runPrefix: 'one-router',
    seen: seenValues(),
    random: seededRandom(3),
    hasQuotaKey: false,
    model: model.model,
    readOnly: false,
    probe: { reason: 'none' },
  });
  expect(findings.map((f) => [f.outcome, f.problem])).toEqual([['pass', undefined]]);
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

it('refuses a wrong Content-Type (415) and malformed JSON (400) alike in the mock, the judge and the proxy', async () => {
  const cases = [
    {
      type: 'text/plain',
      body: '{"id":1,"name":"a"}',
      status: 415,
      rule: 'request.media-type',
      code: 'unsupported_media_type',
    },
    { type: 'application/json', body: '{"id":1,', status: 400, rule: 'request.body', code: 'malformed_json' },
  ];
  for (const c of cases) {
    const headers = { 'content-type': c.type, 'x-tenant': '7' };
    const judged = proxy.judge.request({ method: 'POST', url: '/reports', headers, body: c.body });
    expect(judged.problems.map((p) => [p.rule, p.status])).toEqual([[c.rule, c.status]]);
    const init = { method: 'POST', headers, body: c.body };
    const direct = await fetch(`${mockBase}/reports`, init);
    expect([c.type, direct.status]).toEqual([c.type, c.status]);
    expect(((await direct.json()) as { code?: string }).code).toBe(c.code);
    expect((await fetch(`${proxyBase}/reports`, init)).status).toBe(c.status);
  }
  // The same request with a documented type and valid JSON passes the judge and the mock.
  const ok = { 'content-type': 'application/json', 'x-tenant': '7' };
  const body = '{"id":1,"name":"a"}';
  expect(proxy.judge.request({ method: 'POST', url: '/reports', headers: ok, body }).problems).toEqual([]);
  expect((await fetch(`${mockBase}/reports`, { method: 'POST', headers: ok, body })).status).toBeLessThan(
    300,
  );
});

/** A request Node's fetch will not send (a GET with a body): its status. */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    // Node frames no GET body unless told its length.
    const length = { 'content-length': String(Buffer.byteLength(body ?? '')) };
    const req = http.request(`${base}${path}`, { method, headers: { ...length, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The runner's context against the mock, over the operations named (the others need headers it does not send). */
function runnerContext(...operationIds: string[]): RunContext {
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
  const operations = spec.operations.filter((o) => operationIds.includes(o.operationId));
  return {
    spec: { ...spec, operations },
    client,
    runPrefix: 'one-router',
    seen: seenValues(),
    random: seededRandom(5),
    hasQuotaKey: false,
    model: model.model,
    readOnly: false,
    probe: { reason: 'none' },
  };
}

it('refuses a body sent where none is documented with 415 in the mock, the judge, the proxy and the runner', async () => {
  // GET with a JSON body, and a POST that documents no body: the media-type refusal everywhere.
  const cases = [
    { method: 'GET', url: '/items/search' },
    { method: 'POST', url: '/pings' },
  ];
  const headers = { 'content-type': 'application/json' };
  for (const c of cases) {
    const judged = proxy.judge.request({ ...c, headers, body: '{"a":1}' });
    expect([c.url, judged.problems.map((p) => [p.rule, p.status])]).toEqual([
      c.url,
      [['request.media-type', 415]],
    ]);
    expect([c.url, await send(mockBase, c.method, c.url, headers, '{"a":1}')]).toEqual([c.url, 415]);
    expect([c.url, await send(proxyBase, c.method, c.url, headers, '{"a":1}')]).toEqual([c.url, 415]);
  }
  // An empty body is fine on every method: no body, Content-Length: 0 with a Content-Type, DELETE and HEAD alike.
  for (const [method, url] of [
    ['GET', '/items/search'],
    ['HEAD', '/items/search'],
    ['POST', '/pings'],
  ] as const) {
    const empty = { ...headers, 'content-length': '0' };
    expect(proxy.judge.request({ method, url, headers: empty, body: '' }).problems).toEqual([]);
    expect([method, await send(mockBase, method, url, empty, '')]).toEqual([
      method,
      url === '/pings' ? 204 : 200,
    ]);
  }
  // The runner expects the same refusal of the same kind of request, and the mock gives it.
  const ping = spec.byId.get('sendPing');
  if (!ping) throw new Error('sendPing is missing');
  const findings = await bodyCheck(ping).run(runnerContext('sendPing'));
  expect(findings.map((f) => [f.ruleId, f.outcome, f.problem])).toEqual([
    ['body.sendPing.unexpected-body', 'pass', undefined],
  ]);
});

it('refuses a bad body with 400 where 4XX and 422 are documented but not 400, in the mock, the judge, the proxy and the runner', async () => {
  const op = spec.byId.get('createNote');
  if (!op) throw new Error('createNote is missing');
  const headers = { 'content-type': 'application/json' };
  for (const body of ['{"text":5}', '{}', '{"text":']) {
    const judged = proxy.judge.request({ method: 'POST', url: '/notes', headers, body });
    expect([body, judged.problems.map((p) => [p.rule, p.status])]).toEqual([body, [['request.body', 400]]]);
    const init = { method: 'POST', headers, body };
    expect([body, (await fetch(`${mockBase}/notes`, init)).status]).toEqual([body, 400]);
    expect([body, (await fetch(`${proxyBase}/notes`, init)).status]).toEqual([body, 400]);
  }
  // Every case the runner means to be refused expects that 400, and every case passes against the mock.
  const refused = bodyCases(op.requestBody?.schema ?? {}, seededRandom(1), 'p').filter(
    (c) => c.expect === 'reject',
  );
  expect(refused.length).toBeGreaterThan(2);
  for (const c of refused) expect([c.name, expectedRefusal(op, c)]).toEqual([c.name, 400]);
  const ctx = runnerContext('createNote');
  const findings = await bodyCheck(op).run(ctx);
  expect(findings.filter((f) => f.outcome === 'fail').map((f) => f.problem)).toEqual([]);
  expect(findings.filter((f) => f.outcome === 'pass').length).toBeGreaterThan(3);
  // The generated-body rules and the 415 negative case agree too.
  const probe = await requestBodiesCheck.run(ctx);
  expect(probe.filter((f) => f.outcome === 'fail').map((f) => f.problem)).toEqual([]);
  expect(probe.find((f) => f.ruleId === 'assume.media-type-415')).toMatchObject({ outcome: 'pass' });
  const judged = proxy.judge.request({
    method: 'POST',
    url: '/notes',
    headers: { ...headers, 'content-type': 'text/plain' },
    body: '{"text":"a"}',
  });
  expect(judged.problems.map((p) => [p.rule, p.status])).toEqual([['request.media-type', 415]]);
});

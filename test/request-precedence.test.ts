/**
 * Issue 38: one place for request checks. A request that breaks several rules at once is refused by the mock with
 * the first problem of the shared precedence (spec/http/request-rules.ts: 404/405, 401, 415, the parameters in
 * order path, query, header, cookie, then the body (400), then Accept (406)), the same problem the proxy's judge
 * puts first (what `--proxy-mode enforce` answers with).
 */
import path from 'node:path';
import { judgeRequest, routeRequest } from '../proxy/judge/judge-request';
import { loadSpecOrThrow, type LoadedSpec } from '../spec/load';
import { harness, type Harness } from './support/mock-harness';

const SPEC = path.join(__dirname, '..', 'fixtures', 'specs', 'billing-forms-31.yaml');
const AUTH = 'Bearer ent-key';
const FORM = 'application/x-www-form-urlencoded';
let h: Harness;
let spec: LoadedSpec;
beforeAll(async () => {
  [h, spec] = await Promise.all([harness({ specPath: SPEC, seed: {} }), loadSpecOrThrow(SPEC)]);
});
afterAll(() => h.mock.close());

interface Case {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

it.each<[string, Case, number, RegExp]>([
  [
    'an unknown path first',
    { method: 'GET', url: '/v1/nope?filter[limit]=x', headers: { accept: 'text/csv' } },
    404,
    /./,
  ],
  [
    'an undocumented method',
    { method: 'DELETE', url: '/v1/subscribers', headers: { accept: 'text/csv' } },
    405,
    /./,
  ],
  [
    'credentials before the media type, the body and Accept',
    {
      method: 'POST',
      url: '/v1/subscribers',
      headers: { 'content-type': 'text/plain', accept: 'text/csv' },
      body: 'x',
    },
    401,
    /./,
  ],
  [
    'the media type before parameters, body and Accept',
    {
      method: 'POST',
      url: '/v1/subscribers',
      headers: { authorization: AUTH, 'content-type': 'text/plain', accept: 'text/csv' },
      body: 'x',
    },
    415,
    /Content-Type/,
  ],
  [
    'the query before a header, and both before Accept',
    {
      method: 'GET',
      url: '/v1/subscribers?filter[limit]=500',
      headers: { authorization: AUTH, 'x-tenant': 'nope', accept: 'text/csv' },
    },
    400,
    /filter/,
  ],
  [
    'a header before Accept',
    {
      method: 'GET',
      url: '/v1/subscribers',
      headers: { authorization: AUTH, 'x-tenant': 'nope', accept: 'text/csv' },
    },
    400,
    /X-Tenant/,
  ],
  [
    'the body before Accept',
    {
      method: 'POST',
      url: '/v1/subscribers',
      headers: { authorization: AUTH, 'content-type': FORM, accept: 'text/csv' },
      body: 'seats=many',
    },
    400,
    /./,
  ],
  [
    'Accept last',
    { method: 'GET', url: '/v1/subscribers', headers: { authorization: AUTH, accept: 'text/csv' } },
    406,
    /text\/csv/,
  ],
])('%s: the mock and the judge refuse alike', async (_, c, status, message) => {
  const judged = judgeRequest(spec, c, routeRequest(spec, c.method, c.url))[0];
  expect(judged?.status).toBe(status);
  let req = h.http[c.method === 'DELETE' ? 'delete' : c.method === 'POST' ? 'post' : 'get'](c.url).set(
    c.headers,
  );
  if (c.body !== undefined) req = req.send(c.body);
  const res = await req;
  expect([res.status, (res.body as { message?: string }).message]).toEqual([
    status,
    expect.stringMatching(message),
  ]);
});

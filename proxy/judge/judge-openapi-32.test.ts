/**
 * The traffic judge on an OpenAPI 3.2 document (issue 33): QUERY and an `additionalOperations` method are routed
 * by the one router and judged like any operation; an `in: querystring` parameter is judged by the same rule the
 * mock refuses with (spec/http/request-rules.ts).
 */
import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { createJudge, type Judge } from './judge';

const FILE = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'things-32.yaml');
const AUTH = { authorization: 'Bearer k', 'content-type': 'application/json' };

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpecOrThrow(FILE);
});

function judged(method: string, url: string, body: unknown, status: number, answer: unknown) {
  const judge: Judge = createJudge(spec, Date.now);
  const req = {
    method,
    url: `/v1${url}`,
    headers: AUTH,
    body: body === undefined ? undefined : JSON.stringify(body),
  };
  const seen = judge.request(req);
  judge.response(req, seen.route, seen.problems, {
    status,
    headers: { 'content-type': 'application/json' },
    body: answer === undefined ? '' : JSON.stringify(answer),
  });
  return judge.snapshot().violations.map((v) => `${v.rule}: ${v.message}`);
}

const thing = { id: 1, name: 'kite' };

it.each([
  ['QUERY with a valid search, answered a list', 'QUERY', '/things', { name: 'kite' }, 200, [thing]],
  ['COPY, an additional operation', 'COPY', '/things/1', undefined, 200, thing],
  ['a valid querystring', 'GET', '/reports?from=2026-01-01&limit=3', undefined, 200, []],
])('finds nothing wrong in %s', (_label, method, url, body, status, answer) => {
  expect(judged(method, url, body, status, answer)).toEqual([]);
});

it.each([
  ['a QUERY answered with one item, not a list', 'QUERY', '/things', {}, 200, thing, /response/],
  ['a QUERY body its schema refuses', 'QUERY', '/things', { colour: 'pink' }, 200, [], /colour/],
  [
    'a querystring left out',
    'GET',
    '/reports',
    undefined,
    200,
    [],
    /querystring parameter filter is required/,
  ],
  [
    'a querystring its schema refuses',
    'GET',
    '/reports?from=2026-01-01&limit=99',
    undefined,
    200,
    [],
    /filter: \/limit/,
  ],
  ['a method the path does not document', 'MOVE', '/things/1', undefined, 200, thing, /./],
])('finds %s', (_label, method, url, body, status, answer, message) => {
  expect(judged(method, url, body, status, answer)).toEqual(
    expect.arrayContaining([expect.stringMatching(message)]),
  );
});

/**
 * The stateful rules follow each update's media type (issue 31): a merge patch's `null` removes the member
 * (RFC 7396), a JSON Patch's operations say what changes (RFC 6902), a PUT replaces. A correct server is never
 * reported; a server that ignores the update is.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecOrThrow, type LoadedSpec } from '../../spec/load';
import { createJudge, type Judge } from './judge';

const DOC = `
openapi: 3.1.0
info: { title: Books, version: 1.0.0 }
servers: [{ url: /v1 }]
paths:
  /books:
    post:
      operationId: createBook
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } } }
  /books/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
    get:
      operationId: getBook
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } } }
        '404': { description: none }
    put:
      operationId: replaceBook
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } }
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } } }
    patch:
      operationId: patchBook
      requestBody:
        required: true
        content:
          application/merge-patch+json: { schema: { type: object } }
          application/json-patch+json:
            schema:
              type: array
              items: { type: object, required: [op, path], properties: { op: { type: string }, path: { type: string }, value: {} } }
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } } }
components:
  schemas:
    Book:
      type: object
      required: [title]
      properties:
        id: { type: integer, readOnly: true }
        title: { type: string }
        author: { type: [string, 'null'] }
        meta: { type: object, properties: { pages: { type: integer }, isbn: { type: string } } }
`;

let spec: LoadedSpec;
beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-state-'));
  fs.writeFileSync(path.join(dir, 'books.yaml'), DOC);
  spec = await loadSpecOrThrow(path.join(dir, 'books.yaml'));
});

function send(judge: Judge, method: string, url: string, type: string, body: unknown, answer: unknown) {
  const req = {
    method,
    url: `/v1${url}`,
    headers: { 'content-type': type },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
  const seen = judge.request(req);
  judge.response(req, seen.route, seen.problems, {
    status: method === 'POST' ? 201 : 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(answer),
  });
}

const stale = (judge: Judge) =>
  judge
    .snapshot()
    .violations.filter((v) => v.rule === 'state.update-reflected')
    .map((v) => v.message);

const JSON_TYPE = 'application/json';
const MERGE = 'application/merge-patch+json';
const PATCH = 'application/json-patch+json';
const made = { id: 1, title: 'Dune', author: 'Herbert', meta: { pages: 412, isbn: 'x' } };

/** Create, update, read: the violations of state.update-reflected. */
function afterUpdate(method: string, type: string, update: unknown, read: unknown): string[] {
  const judge = createJudge(spec, Date.now);
  send(judge, 'POST', '/books', JSON_TYPE, { title: 'Dune', author: 'Herbert' }, made);
  send(judge, method, '/books/1', type, update, read);
  send(judge, 'GET', '/books/1', JSON_TYPE, undefined, read);
  return stale(judge);
}

it.each<[string, string, string, unknown, unknown]>([
  [
    'a merge patch null removes the member',
    'PATCH',
    MERGE,
    { author: null },
    { id: 1, title: 'Dune', meta: made.meta },
  ],
  [
    'a merge patch merges a nested object, keeping what it does not name',
    'PATCH',
    MERGE,
    { meta: { pages: 500, isbn: null } },
    { ...made, meta: { pages: 500 } },
  ],
  [
    'a JSON Patch replace, add and remove',
    'PATCH',
    PATCH,
    [
      { op: 'replace', path: '/title', value: 'Dune Messiah' },
      { op: 'remove', path: '/author' },
      { op: 'add', path: '/meta/pages', value: 256 },
    ],
    { id: 1, title: 'Dune Messiah', meta: { pages: 256, isbn: 'x' } },
  ],
  [
    'a PUT replaces with what was sent',
    'PUT',
    JSON_TYPE,
    { title: 'Emma', author: 'Austen' },
    { id: 1, title: 'Emma', author: 'Austen' },
  ],
])('a correct server: %s', (_name, method, type, update, read) => {
  expect(afterUpdate(method, type, update, read)).toEqual([]);
});

it.each<[string, string, string, unknown, unknown, string]>([
  ['a merge patch null ignored', 'PATCH', MERGE, { author: null }, made, 'author'],
  ['a nested merge ignored', 'PATCH', MERGE, { meta: { pages: 500 } }, made, 'meta.pages'],
  ['a JSON Patch remove ignored', 'PATCH', PATCH, [{ op: 'remove', path: '/author' }], made, 'author'],
  [
    'a JSON Patch replace ignored',
    'PATCH',
    PATCH,
    [{ op: 'replace', path: '/title', value: 'X' }],
    made,
    'title',
  ],
  ['a PUT ignored', 'PUT', JSON_TYPE, { title: 'Emma', author: 'Austen' }, made, 'title, author'],
])('a server that ignores it: %s', (_name, method, type, update, read, fields) => {
  expect(afterUpdate(method, type, update, read)).toEqual([
    `books 1 was updated (2xx) but the next read has the old ${fields}`,
  ]);
});

describe('a resource keyed by a nested field (`{name}` is /metadata/name)', () => {
  const CLUSTERS = `
openapi: 3.1.0
info: { title: Clusters, version: 1.0.0 }
servers: [{ url: /v1 }]
paths:
  /clusters:
    post:
      operationId: createCluster
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Cluster' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Cluster' } } } }
  /clusters/{name}:
    parameters: [{ name: name, in: path, required: true, schema: { type: string } }]
    get:
      operationId: getCluster
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Cluster' } } } }
        '404': { description: none }
    delete:
      operationId: deleteCluster
      responses: { '200': { description: gone } }
components:
  schemas:
    Cluster:
      type: object
      properties:
        kind: { type: string }
        metadata: { type: object, properties: { name: { type: string }, uid: { type: string } } }
`;

  it('judges the read after a delete by the key the path names', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-state-'));
    fs.writeFileSync(path.join(dir, 'clusters.yaml'), CLUSTERS);
    const judge = createJudge(await loadSpecOrThrow(path.join(dir, 'clusters.yaml')), Date.now);
    const item = { kind: 'Cluster', metadata: { name: 'east', uid: 'u1' } };
    send(judge, 'POST', '/clusters', JSON_TYPE, item, item);
    send(judge, 'DELETE', '/clusters/east', JSON_TYPE, undefined, {});
    send(judge, 'GET', '/clusters/east', JSON_TYPE, undefined, item);
    const rules = judge.snapshot().violations.map((v) => v.rule);
    expect(rules).toContain('state.deleted-gone');
  });
});

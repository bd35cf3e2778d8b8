/**
 * Issue 26.1, the request side alone: a create that takes `{"note": {...}}` and answers the note bare stores
 * the note inside, answers it, and reads it back; the runner's lifecycle passes on it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { createFetchHandler } from '../mock/adapters/fetch';
import { runConformance } from '../conformance';
import { compileSpec } from '../spec/compile';
import { inferResources } from '../spec/resources';

const note = {
  type: 'object',
  required: ['id', 'text'],
  properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string', minLength: 1 } },
};
const wrapped = {
  type: 'object',
  required: ['note'],
  properties: { note: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } },
};
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const document = {
  openapi: '3.1.0',
  info: { title: 'notes', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { required: true, ...json(wrapped) },
        responses: { '201': { description: 'made', ...json(note) } },
      },
    },
    '/notes/{id}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'it', ...json(note) }, '404': { description: 'no' } },
      },
    },
  },
} as unknown as OpenAPIV3_1.Document;
const spec = compileSpec('notes', document, false);
const KEY = 'envelope-request-key-01';

it('infers an envelope on the request only', () => {
  const inferred = inferResources(spec);
  if (!inferred.ok) throw new Error(inferred.error);
  expect(inferred.model.resources[0]).toMatchObject({ envelope: 'note', idField: 'id', itemSchema: note });
});

it('stores the item inside the wrapper and answers it bare', async () => {
  const fetch = await createFetchHandler({ document: spec, keys: [{ key: KEY, plan: 'pro' }] });
  const post = await fetch(
    new Request('http://mock.test/notes', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: { text: 'hello' } }),
    }),
  );
  expect([post.status, await post.json()]).toEqual([201, { id: 1, text: 'hello' }]);
  const get = await fetch(new Request('http://mock.test/notes/1'));
  expect([get.status, await get.json()]).toEqual([200, { id: 1, text: 'hello' }]);
});

it('passes the runner: the create and the read back', async () => {
  const specFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'notes-')), 'notes.json');
  fs.writeFileSync(specFile, JSON.stringify(document));
  const report = await runConformance({
    target: 'http://mock.test',
    key: KEY,
    specFile,
    seed: 3,
    fetch: await createFetchHandler({ document: spec, keys: [{ key: KEY, plan: 'pro' }] }),
  });
  const crud = report.rules.filter((r) => r.id.startsWith('crud.notes.'));
  expect(crud.map((r) => [r.id, r.status])).toEqual(
    expect.arrayContaining([
      ['crud.notes.create', 'pass'],
      ['crud.notes.read', 'pass'],
    ]),
  );
  expect(crud.filter((r) => r.status === 'fail')).toEqual([]);
});

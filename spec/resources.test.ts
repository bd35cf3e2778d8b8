import path from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec } from './compile';
import { loadSpecOrThrow } from './load';
import { describeResources, inferResources, type ResourceModel } from './resources';

const ROOT = path.join(__dirname, '..');

function model(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}): ResourceModel {
  const document = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths,
    components: { schemas },
  } as unknown as OpenAPIV3_1.Document;
  const result = inferResources(compileSpec('inline', document, false));
  if (!result.ok) throw new Error(result.error);
  return result.model;
}

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const book = {
  type: 'object',
  required: ['isbn', 'title'],
  properties: { isbn: { type: 'string' }, title: { type: 'string' } },
};

describe('inferResources', () => {
  it('finds the categories of the published pet store, and only them', async () => {
    const spec = await loadSpecOrThrow(path.join(ROOT, 'spec', 'openapi.yaml'));
    const result = inferResources(spec);
    expect(result.ok && describeResources(result.model)).toEqual([
      'categories: /categories; create, list; key /id (integer, server)',
    ]);
  });

  it('finds collections, items and the readOnly id of the second document', async () => {
    const spec = await loadSpecOrThrow(path.join(ROOT, 'fixtures', 'specs', 'petstore-full.yaml'));
    const result = inferResources(spec);
    if (!result.ok) throw new Error(result.error);
    const names = result.model.resources.map((r) => [r.name, r.idField, r.itemParam]);
    expect(names).toEqual([
      ['categories', 'id', 'categoryId'],
      ['pets', 'id', 'petId'],
      ['orders', 'id', 'orderId'],
    ]);
    expect(result.model.byOperation.get('updatePet')?.action).toBe('patch');
    expect(result.model.byOperation.get('deleteOrder')?.action).toBe('remove');
  });

  it.each([
    ['the property named like the item parameter', 'isbn', { isbn: { type: 'string' } }],
    ['a readOnly property', 'code', { code: { type: 'string', readOnly: true }, id: { type: 'string' } }],
    [
      'the path parameter before a readOnly one',
      'isbn',
      { code: { type: 'string', readOnly: true }, isbn: { type: 'string' } },
    ],
  ])('takes as id %s', (_name, id, props) => {
    const item = { type: 'object', properties: { ...props, title: { type: 'string' } } };
    const m = model({
      '/books': { post: { operationId: 'add', requestBody: json(item), responses: { '201': json(item) } } },
      '/books/{isbn}': { get: { operationId: 'one', responses: { '200': json(item) } } },
    });
    expect(m.resources[0]?.idField).toBe(id);
  });

  it('takes as id the property the response requires and the request lacks (Pet = allOf[NewPet, {id}])', () => {
    const newPet = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    const pet = {
      allOf: [newPet, { type: 'object', required: ['key'], properties: { key: { type: 'integer' } } }],
    };
    const m = model({
      '/pets': { post: { operationId: 'add', requestBody: json(newPet), responses: { '200': json(pet) } } },
    });
    expect(m.resources[0]).toMatchObject({ idField: 'key', idType: 'integer', idSource: 'server' });
  });

  it('lets a client send an id the request schema names (used when given)', () => {
    const m = model({
      '/books': { post: { operationId: 'add', requestBody: json(book), responses: { '201': json(book) } } },
      '/books/{isbn}': { delete: { operationId: 'drop', responses: { '204': { description: 'gone' } } } },
    });
    expect(m.resources[0]).toMatchObject({ idField: 'isbn', idType: 'string', idSource: 'client' });
  });

  it('finds a list envelope and its paging parameters', () => {
    const m = model({
      '/events': {
        post: { operationId: 'add', requestBody: json(book), responses: { '201': json(book) } },
        get: {
          operationId: 'list',
          parameters: [
            { name: 'page', in: 'query', schema: { type: 'integer' } },
            { name: 'limit', in: 'query', schema: { type: 'integer' } },
          ],
          responses: {
            '200': json({
              type: 'object',
              properties: { data: { type: 'array', items: book }, links: { type: 'object' } },
            }),
          },
        },
      },
    });
    expect(m.resources[0]).toMatchObject({
      listEnvelope: { property: 'data' },
      paging: { page: 'page', limit: 'limit' },
    });
  });

  it('leaves a list nothing can fill (no create: a search such as /pet/findByStatus) to the examples', () => {
    const m = model({
      '/pets/findByStatus': {
        get: { operationId: 'find', responses: { '200': json({ type: 'array', items: book }) } },
      },
    });
    expect(m.resources).toEqual([]);
  });

  it('leaves operations with x-mock: examples, or with no object schema, to the examples', () => {
    const m = model({
      '/books': {
        post: {
          operationId: 'add',
          'x-mock': 'examples',
          requestBody: json(book),
          responses: { '201': json(book) },
        },
        get: { operationId: 'list', responses: { '200': json({}) } },
      },
    });
    expect(m.resources).toEqual([]);
  });

  describe('two paths inferred as one name, or one collection with two item paths (issue 30)', () => {
    const ops = (id: string, extra: Record<string, unknown> = {}) => ({
      post: { operationId: id, requestBody: json(book), responses: { '201': json(book) }, ...extra },
    });
    const infer = (paths: Record<string, unknown>) =>
      inferResources(
        compileSpec(
          'inline',
          { openapi: '3.1.0', info: { title: 't', version: '1' }, paths } as unknown as OpenAPIV3_1.Document,
          false,
        ),
      );

    it('tells them apart by path: the shorter keeps the name, one note per rename', () => {
      const result = infer({
        '/sessions': ops('a'),
        '/applePay/sessions': ops('b'),
        '/x/y/sessions': ops('c'),
      });
      if (!result.ok) throw new Error(result.error);
      expect(result.model.resources.map((r) => [r.name, r.collectionPath])).toEqual([
        ['sessions', '/sessions'],
        ['applePay-sessions', '/applePay/sessions'],
        ['x-y-sessions', '/x/y/sessions'],
      ]);
      expect(result.model.notes).toEqual([
        'resource /applePay/sessions named applePay-sessions (sessions is /sessions; x-mock.resource names it)',
        'resource /x/y/sessions named x-y-sessions (sessions is /sessions; x-mock.resource names it)',
      ]);
    });

    it('keeps the name x-mock gives; two equal x-mock names are an error', () => {
      const named = infer({
        '/a/books': ops('a'),
        '/b/books': ops('b', { 'x-mock': { resource: 'books' } }),
      });
      if (!named.ok) throw new Error(named.error);
      expect(named.model.resources.map((r) => r.name).sort()).toEqual(['a-books', 'books']);
      const both = infer({
        '/a/books': ops('a', { 'x-mock': { resource: 'books' } }),
        '/b/books': ops('b', { 'x-mock': { resource: 'books' } }),
      });
      expect(both).toEqual({ ok: false, error: expect.stringMatching(/\/b\/books: x-mock names books/) });
    });

    it('serves the second item path of a collection from the document, with a note', () => {
      const country = { type: 'object', required: ['code3'], properties: { code3: { type: 'string' } } };
      const read = (id: string) => ({ get: { operationId: id, responses: { '200': json(country) } } });
      const result = infer({
        '/countries': {
          post: { operationId: 'add', requestBody: json(country), responses: { '201': json(country) } },
        },
        '/countries/{code3}': read('by3'),
        '/countries/{code2}': read('by2'),
      });
      if (!result.ok) throw new Error(result.error);
      expect(result.model.resources[0]?.operations).toEqual({ create: 'add', read: 'by3' });
      expect(result.model.byOperation.has('by2')).toBe(false);
      expect(result.model.notes).toEqual([
        'GET /countries/{code2}: a second item path of /countries (beside /countries/{code3}), served from the document',
      ]);
    });
  });

  describe('paths that act, not resources (issue 21)', () => {
    const user = { type: 'object', required: ['username'], properties: { username: { type: 'string' } } };
    const create = (schema: unknown) => ({
      operationId: `create${Math.random().toString(36).slice(2, 8)}`,
      requestBody: json(schema),
      responses: { '200': json(schema) },
    });
    const paths = {
      '/user': { post: { ...create(user), operationId: 'createUser' } },
      '/user/{username}': { get: { operationId: 'getUser', responses: { '200': json(user) } } },
      '/user/createWithList': {
        post: { ...create({ type: 'array', items: user }), operationId: 'createUsersWithList' },
      },
      '/pet/{petId}': { get: { operationId: 'getPet', responses: { '200': json(book) } } },
      '/pet/findByStatus': { post: { ...create(book), operationId: 'findPets' } },
      '/files:upload': { post: { ...create(book), operationId: 'uploadFile' } },
      '/reports/{reportId}/runs': { post: { ...create(book), operationId: 'runReport' } },
    };

    it('answers a literal segment under a collection, or a custom method, from examples', () => {
      const m = model(paths);
      expect(m.resources.map((r) => r.name)).toEqual(['user']);
      for (const id of ['createUsersWithList', 'findPets', 'uploadFile', 'runReport'])
        expect([id, m.byOperation.get(id)]).toEqual([id, undefined]);
    });

    it('makes one a resource when x-mock says so', () => {
      const m = model({
        ...paths,
        '/pet/findByStatus': {
          post: { ...paths['/pet/findByStatus'].post, 'x-mock': { resource: 'searches' } },
        },
      });
      expect(m.byOperation.get('findPets')).toMatchObject({ action: 'create' });
    });
  });
});

describe('ids in the document form (issue 26.6)', () => {
  it('reads the form from the id an answer example shows', () => {
    const schedule = {
      type: 'object',
      required: ['id', 'cron'],
      properties: { id: { type: 'string', readOnly: true }, cron: { type: 'string' } },
    };
    const answer = {
      content: { 'application/json': { schema: schedule, example: { id: 'job_42', cron: '* * * * *' } } },
    };
    const m = model({
      '/jobs': {
        post: {
          operationId: 'createJob',
          requestBody: json(schedule),
          responses: { '201': { description: 'ok', ...answer } },
        },
      },
      '/jobs/{jobId}': {
        get: {
          operationId: 'getJob',
          parameters: [{ name: 'jobId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok', ...json(schedule) } },
        },
      },
    });
    expect(m.resources[0]?.idForm).toEqual({ prefix: 'job_', kind: 'counter' });
  });
  it('never takes as id an object written as allOf, nor a required property that is one (AWS wrappers)', () => {
    const bundle = { type: 'object', required: ['arn'], properties: { arn: { type: 'string' } } };
    const answer = {
      type: 'object',
      required: ['appBundle'],
      properties: { appBundle: { allOf: [bundle, { description: 'The bundle.' }] } },
    };
    const request = { type: 'object', properties: { clientToken: { type: 'string' } } };
    const m = model({
      '/bundles': {
        post: { operationId: 'add', requestBody: json(request), responses: { '201': json(answer) } },
      },
      '/bundles/{bundleIdentifier}': { get: { operationId: 'one', responses: { '200': json(answer) } } },
    });
    expect(m.resources[0]?.idField).toBeUndefined();
  });
});

describe('a create named by a verb under its collection (kit-classes-31.yaml)', () => {
  it('is the collection create, and {name} keys the item by its Name', async () => {
    const spec = await loadSpecOrThrow(
      path.join(__dirname, '..', 'fixtures', 'specs', 'kit-classes-31.yaml'),
    );
    const result = inferResources(spec);
    if (!result.ok) throw new Error(result.error);
    const volumes = result.model.resources.find((r) => r.name === 'volumes');
    expect(volumes?.operations.create).toBe('createVolume');
    expect(volumes?.idField).toBe('Name');
  });
});

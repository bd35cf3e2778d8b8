/**
 * Issue 30, "Left from the third round of real documents", on the wild documents (blog-31: comments under each
 * article, a replace whose fields are all optional; scheduler-31: deactivate and activate) and a document cut
 * for the purpose (a 422 whose error schema is `{ errors?: [{ field?, message? }] }`, `x-mock.set`).
 */
import path from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { createFetchHandler } from '../mock/adapters/fetch';
import { compileSpec } from '../spec/compile';
import { loadSpecOrThrow } from '../spec/load';
import { inferResources } from '../spec/resources';

const WILD = path.join(__dirname, '..', 'fixtures', 'specs', 'wild');
const KEY = 'third-round-key-0123456789';
type Json = Record<string, unknown>;

async function mockOf(document: string | OpenAPIV3_1.Document, base: string) {
  const spec =
    typeof document === 'string'
      ? await loadSpecOrThrow(path.join(WILD, document))
      : compileSpec('inline', document, false);
  const handler = await createFetchHandler({ document: spec, keys: [{ key: KEY, plan: 'pro' }] });
  return async (method: string, p: string, body?: unknown) => {
    const res = await handler(
      new Request(`${base}${p}`, {
        method,
        headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : undefined) as Json };
  };
}

describe('a sub-collection under an item (POST /articles/{slug}/comments)', () => {
  it('stores the comment and lists it under its article only', async () => {
    const call = await mockOf('blog-31.yaml', 'https://blog.example.org/api');
    const article = { title: 'Dragons', description: 'How to', body: 'Believe' };
    const a = (await call('POST', '/articles', { article })).json.article as Json;
    const b = (await call('POST', '/articles', { article: { ...article, title: 'Other' } })).json
      .article as Json;
    const made = await call('POST', `/articles/${String(a.slug)}/comments`, { comment: { body: 'First!' } });
    expect(made.status).toBe(200);
    const comment = made.json.comment as Json;
    expect(comment).toMatchObject({ body: 'First!', id: expect.any(Number) });
    expect(comment).not.toHaveProperty('$parent');
    const listed = await call('GET', `/articles/${String(a.slug)}/comments`);
    expect(listed.json).toEqual({ comments: [comment] });
    expect((await call('GET', `/articles/${String(b.slug)}/comments`)).json).toEqual({ comments: [] });
    // Addressed under another article, or under none, it is not there.
    expect((await call('DELETE', `/articles/${String(b.slug)}/comments/${String(comment.id)}`)).status).toBe(
      404,
    );
    expect(
      (await call('POST', '/articles/no-such-article/comments', { comment: { body: 'x' } })).status,
    ).toBe(404);
    expect((await call('DELETE', `/articles/${String(a.slug)}/comments/${String(comment.id)}`)).status).toBe(
      204,
    );
    expect((await call('GET', `/articles/${String(a.slug)}/comments`)).json).toEqual({ comments: [] });
  });

  it('is inferred as a resource under its parent, and a verb under an item never is', async () => {
    const inferred = inferResources(await loadSpecOrThrow(path.join(WILD, 'blog-31.yaml')));
    if (!inferred.ok) throw new Error(inferred.error);
    const comments = inferred.model.resources.find((r) => r.name === 'comments');
    expect(comments).toMatchObject({ parent: { name: 'articles', param: 'slug' }, envelope: 'comment' });
    expect(inferred.model.resources.map((r) => r.name)).not.toContain('favorite');
  });
});

describe('a replace whose body is wrapped and partial (PUT /articles/{slug} with {"article": {…}})', () => {
  it('stores and answers the sent values, keeping what it does not send', async () => {
    const call = await mockOf('blog-31.yaml', 'https://blog.example.org/api');
    const article = { title: 'Dragons', description: 'How to', body: 'Believe', tagList: ['x'] };
    const a = (await call('POST', '/articles', { article })).json.article as Json;
    const put = await call('PUT', `/articles/${String(a.slug)}`, { article: { title: 'Wyverns' } });
    expect(put.status).toBe(200);
    const expected = { ...article, title: 'Wyverns', slug: a.slug, author: a.author };
    expect(put.json.article).toMatchObject(expected);
    expect((await call('GET', `/articles/${String(a.slug)}`)).json.article).toMatchObject(expected);
  });
});

describe('an action whose name says what it does to the item', () => {
  it('deactivate sets active to false, activate sets it back, and the read agrees', async () => {
    const call = await mockOf('scheduler-31.yaml', 'https://scheduler.example.com/v1');
    const made = await call('POST', '/schedules', { cron: '0 8 * * *', active: true });
    const id = String(made.json.id);
    const off = await call('POST', `/schedules/${id}/deactivate`);
    expect(off).toMatchObject({ status: 200, json: { id, active: false, cron: '0 8 * * *' } });
    expect((await call('GET', `/schedules/${id}`)).json.active).toBe(false);
    expect((await call('POST', `/schedules/${id}/activate`)).json.active).toBe(true);
    expect((await call('GET', `/schedules/${id}`)).json.active).toBe(true);
  });

  it('favorite sets favorited on a wrapped item; the decision is one line at start', async () => {
    const spec = await loadSpecOrThrow(path.join(WILD, 'blog-31.yaml'));
    const inferred = inferResources(spec);
    if (!inferred.ok) throw new Error(inferred.error);
    expect(inferred.model.notes).toContain(
      'POST /articles/{slug}/favorite: sets favorited to true on the articles item (x-mock.set says otherwise)',
    );
    const call = await mockOf('blog-31.yaml', 'https://blog.example.org/api');
    const article = { title: 'Dragons', description: 'How to', body: 'Believe' };
    const a = (await call('POST', '/articles', { article })).json.article as Json;
    await call('PATCH', `/articles/${String(a.slug)}`, { article: { title: 'T' } });
    const fav = await call('POST', `/articles/${String(a.slug)}/favorite`);
    expect((fav.json.article as Json).favorited).toBe(true);
  });
});

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const thing = {
  type: 'object',
  required: ['id', 'name', 'status'],
  properties: {
    id: { type: 'integer', readOnly: true },
    name: { type: 'string', minLength: 1 },
    status: { type: 'string', enum: ['draft', 'published', 'archived'] },
  },
};
const errors = {
  type: 'object',
  properties: {
    errors: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};
const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }];
const inline = (xMock?: unknown) =>
  ({
    openapi: '3.1.0',
    info: { title: 'things', version: '1' },
    paths: {
      '/things': {
        post: {
          operationId: 'createThing',
          requestBody: { required: true, ...json({ ...thing, required: ['name', 'status'] }) },
          responses: {
            '201': { description: 'made', ...json(thing) },
            '422': { description: 'no', ...json(errors) },
          },
        },
      },
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          parameters: idParam,
          responses: { '200': { description: 'it', ...json(thing) }, '404': { description: 'no' } },
        },
      },
      '/things/{id}/publish': {
        post: {
          operationId: 'publishThing',
          parameters: idParam,
          ...(xMock === undefined ? {} : { 'x-mock': xMock }),
          responses: { '200': { description: 'it', ...json(thing) }, '404': { description: 'no' } },
        },
      },
    },
  }) as unknown as OpenAPIV3_1.Document;

describe('a documented 422 with its own error schema', () => {
  it('is answered in that schema ({"errors": [{ "message" }]}), not {}', async () => {
    const call = await mockOf(inline(), 'http://mock.test');
    const out = await call('POST', '/things', { name: '', status: 'draft' });
    expect(out.status).toBe(422);
    expect(out.json).toEqual({ errors: [{ message: expect.stringContaining('/name') }] });
  });
});

describe('x-mock.set', () => {
  it('a status enum follows the verb (publish -> published); x-mock.set says otherwise', async () => {
    const plain = await mockOf(inline(), 'http://mock.test');
    await plain('POST', '/things', { name: 'a', status: 'draft' });
    expect((await plain('POST', '/things/1/publish')).json.status).toBe('published');
    const given = await mockOf(inline({ set: { status: 'archived' } }), 'http://mock.test');
    await given('POST', '/things', { name: 'a', status: 'draft' });
    expect((await given('POST', '/things/1/publish')).json.status).toBe('archived');
    expect((await given('GET', '/things/1')).json.status).toBe('archived');
  });

  it('refuses a value the property does not take', () => {
    const inferred = inferResources(compileSpec('inline', inline({ set: { status: 'gone' } }), false));
    expect(inferred).toEqual({ ok: false, error: expect.stringContaining('x-mock.set gives status') });
  });
});

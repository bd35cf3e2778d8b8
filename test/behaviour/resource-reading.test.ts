/**
 * Issue 38: the engine's one reading of resources on a document written as public APIs write theirs
 * (fixtures/specs/resources-31.yaml): a singular item path beside its plural collection, a create answering only
 * the id, a POST that updates, a key the path names, a trailing-slash collection, a parent whose parameter is
 * named differently, a create documented only as `2XX`.
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'resources-31.yaml');

let mock: MockServer;
let base: string;
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, clock: testClock() });
  base = await mock.listen();
});
afterAll(() => mock.close());

const api = () => request(base);

describe('a create answering only the id, read through a singular item path', () => {
  it('answers the id it stored, where the document puts it, and Location names the item', async () => {
    const made = await api().post('/widgets').send({ name: 'gear', color: 'red' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ widgetID: expect.any(String) });
    expect(made.headers.location).toBe(`/widget/${made.body.widgetID}`);
    const read = await api().get(`/widget/${made.body.widgetID}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ id: made.body.widgetID, name: 'gear', color: 'red' });
    const list = await api().get('/widgets');
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(made.body.widgetID);
    expect(list.body.has_more).toBe(false);
    expect(list.body.total_count).toBe(list.body.data.length);
  });

  it('updates through the POST the document calls an update, and reads the change back', async () => {
    const made = await api().post('/widgets').send({ name: 'cog' });
    const id = made.body.widgetID as string;
    const updated = await api().post(`/widget/${id}`).send({ name: 'cog', color: 'blue' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'cog', color: 'blue' });
    expect((await api().get(`/widget/${id}`)).body.color).toBe('blue');
  });

  it('answers 404 for an unknown id on every item path, its sub-path and its update', async () => {
    for (const res of [
      await api().get('/widget/nope'),
      await api().get('/widget/nope/stats'),
      await api().post('/widget/nope').send({ name: 'x' }),
      await api().delete('/widget/nope'),
    ])
      expect(res.status).toBe(404);
  });
});

describe('keys, trailing slashes and parents as the paths name them', () => {
  it('keys an issue by the number its path names', async () => {
    const made = await api().post('/issues').send({ title: 'broken' });
    expect(made.status).toBe(201);
    const read = await api().get(`/issues/${made.body.number}`);
    expect(read.status).toBe(200);
    expect(read.body.title).toBe('broken');
  });

  it('pairs a trailing-slash collection with its items, and keeps the sub-collection under {userId}', async () => {
    const user = await api().post('/users/').send({ name: 'ada' });
    expect(user.status).toBe(201);
    expect((await api().get(`/users/${user.body.id}/`)).body.name).toBe('ada');
    const other = await api().post('/users/').send({ name: 'bob' });
    const post = await api().post(`/users/${user.body.id}/posts`).send({ text: 'hello' });
    expect(post.status).toBe(201);
    expect((await api().get(`/users/${user.body.id}/posts`)).body).toEqual([post.body]);
    expect((await api().get(`/users/${other.body.id}/posts`)).body).toEqual([]);
    expect((await api().get('/users/999999/posts')).status).toBe(404);
  });
});

describe('a create documented only as 2XX', () => {
  it('answers 201 with the record, which the item path then reads', async () => {
    const made = await api().post('/jobs').send({ command: 'build' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ id: expect.any(String), command: 'build' });
    expect((await api().get(`/jobs/${made.body.id}`)).body).toEqual(made.body);
  });
});

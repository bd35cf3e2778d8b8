/**
 * Issue 38: classes the real-clients kit found, on a small document of our own
 * (fixtures/specs/kit-classes-31.yaml): a create answering the item in a `data` wrapper around a plain body,
 * and a pattern written with Ruby anchors.
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'kit-classes-31.yaml');

let mock: MockServer;
let base: string;
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, clock: testClock() });
  base = await mock.listen();
});
afterAll(() => mock.close());

const api = () => request(base);

describe('a create answering the item in a data wrapper', () => {
  it('stores what was sent, reads it back, lists it, and answers 404 for an unknown or deleted id', async () => {
    const made = await api().post('/media/assets').send({ passthrough: 'kit', domain: 'kit.example.org' });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      id: expect.any(String),
      passthrough: 'kit',
      domain: 'kit.example.org',
    });
    const id = made.body.data.id as string;
    expect((await api().get(`/media/assets/${id}`)).body.data.passthrough).toBe('kit');
    const list = await api().get('/media/assets');
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(id);
    // The envelope's meta tells the truth: the list's key, no next page, the count.
    expect(list.body.meta).toMatchObject({ key: 'data', next_page_url: null });
    expect(list.body.meta.pagination).toEqual({ total_entries: list.body.data.length, next_page: null });
    expect((await api().get('/media/assets/nope')).status).toBe(404);
    expect((await api().delete(`/media/assets/${id}`)).status).toBe(204);
    expect((await api().get(`/media/assets/${id}`)).status).toBe(404);
  });

  it('matches a pattern written with Ruby anchors as its author meant', async () => {
    expect((await api().post('/media/assets').send({ domain: 'kit.example.org' })).status).toBe(201);
    expect((await api().post('/media/assets').send({ domain: 'not a domain' })).status).toBe(400);
  });
});

describe('a create named by a verb under its collection, keyed by the path parameter but for its case', () => {
  it('stores the volume under the Name sent, reads it, lists it, and 404s once removed', async () => {
    const made = await api().post('/volumes/create').send({ Name: 'kit-vol', Driver: 'local' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ Name: 'kit-vol', Driver: 'local' });
    expect((await api().get('/volumes/kit-vol')).body.Name).toBe('kit-vol');
    const list = await api().get('/volumes');
    expect(list.body.Volumes.map((v: { Name: string }) => v.Name)).toEqual(['kit-vol']);
    expect((await api().get('/volumes/nope')).status).toBe(404);
    expect((await api().delete('/volumes/kit-vol')).status).toBe(204);
    expect((await api().get('/volumes/kit-vol')).status).toBe(404);
  });
});

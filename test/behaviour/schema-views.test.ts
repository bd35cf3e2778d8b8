/**
 * Issue 21: schemas as the document means them, on a document written the common way (one schema for both
 * directions, a required readOnly id, a required writeOnly password), and HTTP answers without content.
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { bearer, createTestMock, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'library-31.yaml');
const KEY = 'library-pro-key-000001';

let mock: MockServer;
let base: string;
beforeAll(async () => {
  mock = await createTestMock({
    specPath: SPEC,
    seedFile: null,
    clock: testClock(),
    keys: [{ key: KEY, plan: 'pro' }],
  });
  base = await mock.listen();
});
afterAll(() => mock.close());

const api = () => request(base);

describe('readOnly properties that are required: required in answers only', () => {
  it('creates a book without the id and answers it with the id the server chose', async () => {
    const res = await api().post('/books').set(bearer(KEY)).send({ title: 'Dune' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), title: 'Dune', createdAt: expect.any(String) });
  });

  it('replaces a book without the id, keeping the stored one', async () => {
    const made = await api().post('/books').set(bearer(KEY)).send({ title: 'Emma' });
    const res = await api().put(`/books/${made.body.id}`).set(bearer(KEY)).send({ title: 'Emma, 2nd ed.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: made.body.id, title: 'Emma, 2nd ed.' });
  });

  it('still refuses a readOnly value a client sends (a documented choice)', async () => {
    const res = await api().post('/books').set(bearer(KEY)).send({ id: 9, title: 'Dune' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/id/);
  });
});

describe('writeOnly properties: required in requests, never in answers', () => {
  it('refuses a member without a password', async () => {
    const res = await api().post('/users').set(bearer(KEY)).send({ name: 'Ada' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/password is required/);
  });

  it('never sends a stored password (or a nested writeOnly value) back', async () => {
    const body = { name: 'Ada', password: 'correct-horse-1', profile: { bio: 'b', recoveryCode: 'rc-123' } };
    const made = await api().post('/users').set(bearer(KEY)).send(body);
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const answers = [
      made,
      await api().get(`/users/${id}`).set(bearer(KEY)),
      await api().get('/users').set(bearer(KEY)),
      await api()
        .put(`/users/${id}`)
        .set(bearer(KEY))
        .send({ ...body, name: 'Ada L.' }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200 + (res === made ? 1 : 0));
      expect(res.text).not.toMatch(/correct-horse|rc-123|password|recoveryCode/);
    }
    expect(answers[1]?.body).toEqual({ id, name: 'Ada', profile: { bio: 'b' } });
  });
});

describe('answers without content', () => {
  it('a response documented without content has no body and no Content-Type', async () => {
    const made = await api().post('/users').set(bearer(KEY)).send({ name: 'Bo', password: 'password-22' });
    const res = await api().delete(`/users/${made.body.id}`).set(bearer(KEY));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.text ?? '').toBe('');
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  });

  it('a 204 has no body, no Content-Type and no Content-Length', async () => {
    const made = await api().post('/books').set(bearer(KEY)).send({ title: 'Gone' });
    const res = await api().delete(`/books/${made.body.id}`).set(bearer(KEY));
    expect(res.status).toBe(204);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  });

  it('an operation documented with a default response only answers 200 with its shape', async () => {
    const res = await api().get('/health');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: expect.stringMatching(/^(ok|degraded)$/) });
  });
});

/**
 * Issue 38: where a document requires nothing (go-swagger's), a new record still carries what a server makes:
 * its number, URLs, creation time and state (fixtures/specs/optional-server-fields-20.yaml); not the time of an
 * event that has not happened (`closed_at`), nor an object the mock would invent (`user`).
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, KEYS, testClock, type TestClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'optional-server-fields-20.yaml');

let mock: MockServer;
let base: string;
const clock: TestClock = testClock();
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, keys: KEYS, clock });
  base = await mock.listen();
});
afterAll(() => mock.close());

describe('fields a server makes, left optional by the document', () => {
  it('are filled on a new record and read back the same; events and objects are not', async () => {
    const made = await request(base).post('/tickets').send({ title: 'broken' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ title: 'broken', state: 'open' });
    expect(typeof made.body.number).toBe('number');
    expect(made.body.html_url).toMatch(/^https?:\/\//);
    expect(made.body.url).toMatch(/^https?:\/\//);
    expect(Number.isNaN(Date.parse(made.body.created_at as string))).toBe(false);
    expect(made.body).not.toHaveProperty('closed_at');
    expect(made.body).not.toHaveProperty('user');
    const read = await request(base).get(`/tickets/${made.body.id as number}`);
    expect(read.body).toEqual(made.body);
  });

  it('moves updated_at on an edit, and lists by the state a query names', async () => {
    const one = await request(base).post('/tickets').send({ title: 'one' });
    await request(base).post('/tickets').send({ title: 'two' });
    clock.advance(60_000);
    const closed = await request(base)
      .patch(`/tickets/${one.body.id as number}`)
      .send({ state: 'closed' });
    expect(closed.body.state).toBe('closed');
    expect(closed.body.created_at).toBe(one.body.created_at);
    expect(Date.parse(closed.body.updated_at as string)).toBeGreaterThan(
      Date.parse(one.body.updated_at as string),
    );
    const titles = async (query: string) =>
      (await request(base).get(`/tickets${query}`)).body.map((t: { title: string }) => t.title);
    expect(await titles('?state=closed')).toEqual(['one']);
    expect(await titles('?state=open')).toEqual(expect.not.arrayContaining(['one']));
    expect(await titles('?state=open')).toContain('two');
    expect(await titles('?state=all')).toEqual(expect.arrayContaining(['one', 'two']));
    // `state` left out is its default, `open` (the document's), as a server reads it.
    expect(await titles('?sort=title')).toContain('two');
    expect(await titles('?sort=title')).not.toContain('one');
  });
});

/**
 * Issue 38: where a document requires nothing (go-swagger's), a new record still carries what a server makes:
 * its number, URLs, creation time and state (fixtures/specs/optional-server-fields-20.yaml); not the time of an
 * event that has not happened (`closed_at`), nor an object the mock would invent (`user`).
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, KEYS, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'optional-server-fields-20.yaml');

let mock: MockServer;
let base: string;
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, keys: KEYS, clock: testClock() });
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
});

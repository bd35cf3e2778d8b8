/**
 * Issue 38: a create that says it also updates (fixtures/specs/upsert-20.yaml, "Create a new mute or update an
 * existing one"): a body naming a stored item's id changes that item (one record, read back changed) instead of
 * a duplicate's refusal; a body naming none creates.
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, KEYS, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'upsert-20.yaml');

let mock: MockServer;
let base: string;
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, keys: KEYS, clock: testClock() });
  base = await mock.listen();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const mute = {
  matcher: 'job=backup',
  endsAt: '2030-01-01T00:00:00Z',
  createdBy: 'ops',
  comment: 'maintenance',
};

describe('a create that also updates', () => {
  it('creates, then updates the mute its id names, answering the same id', async () => {
    const made = await request(base).post('/mutes').send(mute);
    expect(made.status).toBe(200);
    const id = made.body.muteID as string;
    expect(typeof id).toBe('string');
    const again = await request(base)
      .post('/mutes')
      .send({ ...mute, id, comment: 'longer maintenance' });
    expect(again.status).toBe(200);
    expect(again.body.muteID).toBe(id);
    const read = await request(base).get(`/mute/${id}`);
    expect(read.body).toMatchObject({ id, comment: 'longer maintenance', createdBy: 'ops' });
    const all = await request(base).get('/mutes');
    expect(all.body).toHaveLength(1);
  });
});

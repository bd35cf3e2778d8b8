/**
 * Issue 38: an update by POST on the item path with a closed form body (fixtures/specs/form-update-31.yaml, the
 * shape of a payments API's customers): the record the server made at create carries `object` and `created`,
 * which the update's body does not name; the update changes what was sent and keeps the rest.
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, KEYS, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'form-update-31.yaml');

let mock: MockServer;
let base: string;
beforeAll(async () => {
  // As `npm start` serves a team's own document: its schemas' additionalProperties decide, not the pet store's rule.
  mock = await createTestMock({
    specPath: SPEC,
    seedFile: null,
    keys: KEYS,
    clock: testClock(),
    policy: { allowUnknownFields: true, rules: {} },
  });
  base = await mock.listen();
});
afterAll(() => mock.close());

const form = (url: string, body: string) =>
  request(base).post(url).set('Content-Type', 'application/x-www-form-urlencoded').send(body);

describe('an update by POST with a closed form body', () => {
  it('changes what was sent and keeps what the server made', async () => {
    const made = await form('/v1/clients', 'email=ann%40example.com&name=Ann&metadata[plan]=gold');
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ object: 'client', name: 'Ann', metadata: { plan: 'gold' } });
    const id = made.body.id as string;
    const updated = await form(`/v1/clients/${id}`, 'name=Bob&metadata[plan]=silver');
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id,
      object: 'client',
      created: made.body.created as number,
      email: 'ann@example.com',
      name: 'Bob',
      metadata: { plan: 'silver' },
    });
    expect((await request(base).get(`/v1/clients/${id}`)).body).toEqual(updated.body);
  });

  it('still refuses a name the update does not take', async () => {
    const made = await form('/v1/clients', 'name=Cy');
    const refused = await form(`/v1/clients/${made.body.id as string}`, 'colour=red');
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('colour');
  });
});

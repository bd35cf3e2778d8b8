/**
 * Issue 26 on a scheduler written as such APIs are: `Authorization: Token <key>` on an apiKey scheme (26.3),
 * an unknown id under an item path is 404 on every operation (26.2), an item action answered with the item's
 * schema answers the stored item (26.5), and errors `{ name, message, debug_id }` filled by meaning (26.7).
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'wild', 'scheduler-31.yaml');
// The same document with a JSON Patch PATCH (in the wild set too: the walk and the runner send JSON Patches).
const PATCH_SPEC = path.join(
  __dirname,
  '..',
  '..',
  'fixtures',
  'specs',
  'wild',
  'scheduler-json-patch-31.yaml',
);
const KEY = 'scheduler-pro-key-000001';
const token = { Authorization: `Token ${KEY}` };

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

describe('an apiKey in Authorization with the prefix its description shows', () => {
  it.each([
    ['Token <key>', `Token ${KEY}`],
    ['the bare key', KEY],
  ])('accepts %s', async (_, value) => {
    const res = await api().get('/schedules').set('Authorization', value);
    expect(res.status).toBe(200);
  });

  it('refuses a wrong key in either form, in the document error shape', async () => {
    const res = await api().get('/schedules').set('Authorization', 'Token nope-nope-nope');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      name: 'unauthorized',
      message: expect.any(String),
      debug_id: expect.any(String),
    });
    expect(res.body.debug_id).not.toBe('string');
  });
});

describe('operations under an item path address that item', () => {
  it.each([
    ['post', '/schedules/sched_none/deactivate'],
    ['get', '/schedules/sched_none/runs'],
    ['get', '/schedules/sched_none'],
  ] as const)('%s %s with an id nobody created is 404', async (method, url) => {
    const res = await api()[method](url).set(token);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'not_found', message: expect.stringMatching(/sched_none/) });
  });

  it('makes ids in the form the example shows (sched_1234): the prefix and a counter', async () => {
    const a = await api().post('/schedules').set(token).send({ cron: '0 9 * * 3', active: true });
    const b = await api().post('/schedules').set(token).send({ cron: '0 9 * * 4', active: true });
    expect(a.body.id).toMatch(/^sched_\d+$/);
    expect(Number(b.body.id.slice(6))).toBe(Number(a.body.id.slice(6)) + 1);
  });

  it('an action answered with the item schema answers the stored item, changed as its name says', async () => {
    const made = await api().post('/schedules').set(token).send({ cron: '0 9 * * 1', active: true });
    expect(made.status).toBe(201);
    const res = await api().post(`/schedules/${made.body.id}/deactivate`).set(token);
    expect(res.status).toBe(200);
    // Issue 30: `deactivate` sets `active` to false, and the stored item says so too.
    expect(res.body).toEqual({ ...made.body, active: false });
    expect((await api().get(`/schedules/${made.body.id}`).set(token)).body).toEqual(res.body);
  });

  it('another operation under a known item answers from its examples', async () => {
    const made = await api().post('/schedules').set(token).send({ cron: '0 9 * * 2', active: true });
    const res = await api().get(`/schedules/${made.body.id}/runs`).set(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ startedAt: '2026-01-05T08:00:00Z', outcome: 'succeeded' }]);
  });
});

describe('JSON Patch (RFC 6902) on a PATCH documented with application/json-patch+json', () => {
  let base: string;
  let patchMock: MockServer;
  beforeAll(async () => {
    patchMock = await createTestMock({
      specPath: PATCH_SPEC,
      seedFile: null,
      clock: testClock(),
      keys: [{ key: KEY, plan: 'pro' }],
    });
    base = await patchMock.listen();
  });
  afterAll(() => patchMock.close());
  const api = () => request(base);

  const patchOf = (id: string, ops: unknown) =>
    api()
      .patch(`/schedules/${id}`)
      .set(token)
      .set('Content-Type', 'application/json-patch+json')
      .send(JSON.stringify(ops));

  it('applies test, replace, add and remove, validates and stores the result', async () => {
    const made = await api().post('/schedules').set(token).send({ cron: '0 1 * * *', active: true });
    const id = made.body.id as string;
    const res = await patchOf(id, [
      { op: 'test', path: '/cron', value: '0 1 * * *' },
      { op: 'replace', path: '/active', value: false },
      { op: 'add', path: '/target', value: 'https://jobs.example.com/run' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      cron: '0 1 * * *',
      active: false,
      target: 'https://jobs.example.com/run',
    });
    const back = await api().get(`/schedules/${id}`).set(token);
    expect(back.body).toEqual(res.body);
    const removed = await patchOf(id, [{ op: 'remove', path: '/target' }]);
    expect(removed.body).toEqual({ id, cron: '0 1 * * *', active: false });
  });

  it('a failed test is 409 and changes nothing; a result the schema refuses is 400', async () => {
    const made = await api().post('/schedules').set(token).send({ cron: '0 2 * * *', active: true });
    const id = made.body.id as string;
    const failed = await patchOf(id, [
      { op: 'replace', path: '/active', value: false },
      { op: 'test', path: '/cron', value: 'other' },
    ]);
    expect(failed.status).toBe(409);
    expect(failed.body).toMatchObject({ message: expect.stringMatching(/test failed/) });
    const invalid = await patchOf(id, [{ op: 'remove', path: '/cron' }]);
    expect(invalid.status).toBe(400);
    const missing = await patchOf(id, [{ op: 'remove', path: '/nope' }]);
    expect(missing.status).toBe(400);
    expect((await api().get(`/schedules/${id}`).set(token)).body).toEqual(made.body);
    expect((await patchOf('sched_none', [])).status).toBe(404);
  });
});

/**
 * Issue 38: a create whose body is a list of items (fixtures/specs/batch-create-20.yaml) stores every item, or
 * none: a client that posts a batch of notices lists them back; a batch with a taken key stores nothing.
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, KEYS, testClock, type TestClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'batch-create-20.yaml');

let mock: MockServer;
let base: string;
const clock: TestClock = testClock();
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, keys: KEYS, clock });
  base = await mock.listen();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const auth = { Authorization: 'Bearer ent-key' };
const get = (url: string) => request(base).get(url).set(auth);
const post = (url: string, body: unknown) =>
  request(base)
    .post(url)
    .set(auth)
    .send(body as object);

describe('a create of a list of items', () => {
  it('stores each item of a batch, and the list shows what was sent', async () => {
    const sent = [
      { labels: { alertname: 'disk' }, annotations: { summary: 'full' } },
      { labels: { alertname: 'cpu' } },
    ];
    expect((await post('/notices', sent)).status).toBe(200);
    const listed = (await get('/notices')).body as { labels: object; fingerprint: string }[];
    expect(listed.map((n) => n.labels)).toEqual([{ alertname: 'disk' }, { alertname: 'cpu' }]);
    expect(listed[0]).toMatchObject({ annotations: { summary: 'full' } });
    // A hash the server fills in is hexadecimal, not the word "string".
    expect(listed[0]?.fingerprint).toMatch(/^[0-9a-f]+$/);
  });

  it("makes each item's server fields apart: its own fingerprint, updated when it was posted", async () => {
    clock.advance(3_600_000);
    const now = clock.now();
    await post('/notices', [{ labels: { alertname: 'disk' } }, { labels: { alertname: 'cpu' } }]);
    const listed = (await get('/notices')).body as { fingerprint: string; updatedAt: string }[];
    expect(listed).toHaveLength(2);
    expect(listed[0]?.fingerprint).not.toBe(listed[1]?.fingerprint);
    for (const n of listed) expect(Date.parse(n.updatedAt)).toBe(now);
  });

  it('answers the new items where the document answers a list, each found at its item path', async () => {
    const made = await post('/markers', [{ name: 'a', colour: 'red' }, { name: 'b' }]);
    expect(made.status).toBe(201);
    expect(made.body).toEqual([{ name: 'a', colour: 'red' }, { name: 'b' }]);
    expect((await get('/markers/b')).body).toEqual({ name: 'b' });
  });

  it('stores none of a batch one of whose keys is taken', async () => {
    await post('/markers', [{ name: 'a' }]);
    const refused = await post('/markers', [{ name: 'b' }, { name: 'a' }]);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'duplicate_id' });
    expect((await get('/markers/b')).status).toBe(404);
    expect((await get('/markers')).body).toEqual([{ name: 'a' }]);
  });
});

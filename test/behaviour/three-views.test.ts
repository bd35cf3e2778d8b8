/**
 * Issue 38: one kind of item answered in three views (fixtures/specs/code-host-views-31.yaml, shaped like a code
 * host's repositories): the creates answer a `repository`, the item path a `full-repository`, a user's list a
 * `minimal-repository`. A repository made through either create is read, changed and removed at its item path
 * and listed under its owner. An issue list's `state` selector: `open` by default, `all` narrows nothing.
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, KEYS, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'code-host-views-31.yaml');

let mock: MockServer;
let base: string;
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, keys: KEYS, clock: testClock() });
  base = await mock.listen();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const auth = { Authorization: 'Bearer ent-key' };
const get = (url: string) => request(base).get(url).set(auth);
const send = (method: 'post' | 'patch', url: string, body: object) =>
  request(base)[method](url).set(auth).send(body);
const names = async (url: string) => ((await get(url)).body as { name: string }[]).map((r) => r.name);

describe('one item in three views', () => {
  it('is read, changed and removed at its item path after a create at /user/repos', async () => {
    const made = await send('post', '/user/repos', { name: 'world', description: 'mine' });
    expect(made.status).toBe(201);
    const owner = (made.body as { owner: { login: string } }).owner.login;
    const read = await get(`/repos/${owner}/world`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: made.body.id as number, name: 'world', description: 'mine' });
    expect(typeof read.body.subscribers_count).toBe('number');
    const changed = await send('patch', `/repos/${owner}/world`, { description: 'changed' });
    expect(changed.body).toMatchObject({ name: 'world', description: 'changed' });
    expect((await get(`/repos/${owner}/world`)).body).toMatchObject({ description: 'changed' });
    expect((await request(base).delete(`/repos/${owner}/world`).set(auth)).status).toBe(204);
    expect((await get(`/repos/${owner}/world`)).status).toBe(404);
  });

  it("is made under an organisation and listed as that owner's", async () => {
    expect((await send('post', '/orgs/acme/repos', { name: 'tool' })).status).toBe(201);
    await send('post', '/orgs/other/repos', { name: 'else' });
    expect((await get('/repos/acme/tool')).body).toMatchObject({ name: 'tool', owner: { login: 'acme' } });
    // The full name the server makes is this repository's, not the example's `octo/Hello-World`.
    expect((await get('/user/repos')).body).toContainEqual(
      expect.objectContaining({ full_name: 'acme/tool' }),
    );
    expect(await names('/users/acme/repos')).toEqual(['tool']);
    expect(await names('/orgs/acme/repos')).toEqual(['tool']);
  });
});

describe("a list's selector with a default", () => {
  it('lists the open issues by default, the closed on asking, and every one for state=all', async () => {
    const made = await send('post', '/orgs/acme/repos', { name: 'tool' });
    expect(made.status).toBe(201);
    const one = await send('post', '/repos/acme/tool/issues', { title: 'one' });
    await send('post', '/repos/acme/tool/issues', { title: 'two' });
    await send('patch', `/repos/acme/tool/issues/${one.body.number as number}`, { state: 'closed' });
    const titles = async (query: string) =>
      ((await get(`/repos/acme/tool/issues${query}`)).body as { title: string }[]).map((i) => i.title);
    expect(await titles('')).toEqual(['two']);
    expect(await titles('?state=closed')).toEqual(['one']);
    expect((await titles('?state=all')).sort()).toEqual(['one', 'two']);
  });
});

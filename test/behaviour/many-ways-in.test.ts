/**
 * Issue 38: a record created through one path is found through the others that name it
 * (fixtures/specs/code-host-31.yaml): `POST /user/repos` then `GET /repos/{owner}/{repo}`, a create under
 * `/orgs/{org}/repos` owned by that org, lists by owner, and `/user/keys` a collection though `/user` is a path.
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, KEYS, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'code-host-31.yaml');

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
const post = (url: string, body: object) => request(base).post(url).set(auth).send(body);

describe('one kind of item, several collection paths', () => {
  it('finds a repository created at /user/repos at its item path, and changes and removes it there', async () => {
    const made = await post('/user/repos', { name: 'hello', description: 'first' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'hello', description: 'first' });
    // The full name the server makes is this repository's owner and name (not a person's name, not the example's).
    const owner = made.body.owner.login as string;
    expect(made.body.full_name).toBe(`${owner}/hello`);
    expect((await get(`/repos/${owner}/hello`)).body).toMatchObject({ name: 'hello', description: 'first' });
    const changed = await request(base)
      .patch(`/repos/${owner}/hello`)
      .set(auth)
      .send({ description: 'second' });
    expect(changed.body.description).toBe('second');
    expect((await get('/user/repos')).body.map((r: { name: string }) => r.name)).toEqual(['hello']);
    expect((await request(base).delete(`/repos/${owner}/hello`).set(auth)).status).toBe(204);
    expect((await get(`/repos/${owner}/hello`)).status).toBe(404);
  });

  it('owns a repository created under /orgs/{org}/repos by the org, and lists it under its owner only', async () => {
    const mine = await post('/user/repos', { name: 'mine' });
    const theirs = await post('/orgs/acme/repos', { name: 'tool' });
    expect(theirs.status).toBe(201);
    expect(theirs.body.owner.login).toBe('acme');
    expect((await get('/repos/acme/tool')).body.name).toBe('tool');
    expect((await get('/orgs/acme/repos')).body.map((r: { name: string }) => r.name)).toEqual(['tool']);
    const byUser = await get(`/users/${mine.body.owner.login as string}/repos`);
    expect(byUser.body.map((r: { name: string }) => r.name)).toEqual(['mine']);
    // Two records never share an invented numeric id.
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('keeps issues under the repository the path names', async () => {
    await post('/orgs/acme/repos', { name: 'tool' });
    const issue = await post('/repos/acme/tool/issues', { title: 'broken' });
    expect(issue.status).toBe(201);
    expect((await get(`/repos/acme/tool/issues/${issue.body.number as number}`)).body.title).toBe('broken');
    expect((await get('/repos/acme/other/issues')).status).toBe(404);
  });

  it('treats /user/keys as a collection with items, and /user/login as an action', async () => {
    const key = await post('/user/keys', { key: 'ssh-ed25519 AAAA', title: 'laptop' });
    expect(key.status).toBe(201);
    expect((await get(`/user/keys/${key.body.id as number}`)).body.title).toBe('laptop');
    expect((await get('/user/keys')).body).toHaveLength(1);
    expect((await get('/user/keys/999999999')).status).toBe(404);
    expect((await request(base).post('/user/login').set(auth)).status).toBe(200);
  });

  it('keeps comments under the issue they were made on, and reads, changes and removes them by id alone', async () => {
    await post('/orgs/acme/repos', { name: 'tool' });
    await post('/repos/acme/tool/issues', { title: 'one' });
    await post('/repos/acme/tool/issues', { title: 'two' });
    const mine = await post('/repos/acme/tool/issues/1/comments', { body: 'hello' });
    expect(mine.status).toBe(201);
    await post('/repos/acme/tool/issues/2/comments', { body: 'other' });
    const onOne = await get('/repos/acme/tool/issues/1/comments');
    expect(onOne.body.map((c: { body: string }) => c.body)).toEqual(['hello']);
    const at = `/repos/acme/tool/issues/comments/${mine.body.id as number}`;
    expect((await get(at)).body.body).toBe('hello');
    await request(base).patch(at).set(auth).send({ body: 'changed' }).expect(200);
    expect((await get('/repos/acme/tool/issues/1/comments')).body[0].body).toBe('changed');
    expect((await request(base).delete(at).set(auth)).status).toBe(204);
    expect((await get(at)).status).toBe(404);
  });

  it("keeps issue 1's comments of two repositories apart, and lists a repository's comments of every issue", async () => {
    for (const name of ['tool', 'kit']) {
      await post('/orgs/acme/repos', { name });
      await post(`/repos/acme/${name}/issues`, { title: 'one' });
      await post(`/repos/acme/${name}/issues`, { title: 'two' });
    }
    const first = await post('/repos/acme/tool/issues/1/comments', { body: 'tool 1' });
    await post('/repos/acme/tool/issues/2/comments', { body: 'tool 2' });
    await post('/repos/acme/kit/issues/1/comments', { body: 'kit 1' });
    const bodies = async (url: string) => (await get(url)).body.map((c: { body: string }) => c.body);
    expect(await bodies('/repos/acme/tool/issues/1/comments')).toEqual(['tool 1']);
    expect(await bodies('/repos/acme/kit/issues/1/comments')).toEqual(['kit 1']);
    // The repository-wide list: every issue's comments of that repository, none of another's.
    expect(await bodies('/repos/acme/tool/issues/comments')).toEqual(['tool 1', 'tool 2']);
    expect(await bodies('/repos/acme/kit/issues/comments')).toEqual(['kit 1']);
    // A comment is read by id under its own repository only.
    const id = first.body.id as number;
    expect((await get(`/repos/acme/tool/issues/comments/${id}`)).status).toBe(200);
    expect((await get(`/repos/acme/kit/issues/comments/${id}`)).status).toBe(404);
  });
});

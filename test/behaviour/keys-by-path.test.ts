/**
 * Issue 38: records keyed and found as the paths name them (fixtures/specs/keys-31.yaml, hand-made in the
 * shape of a cluster API, a code host and a planner): a key nested in `metadata`, items under a namespace and a
 * list of every namespace's, a composite key `/repos/{owner}/{repo}` for a repo created at `/user/repos`, issues
 * numbered per repo, a project created under a workspace and found at `/projects/{project_gid}`.
 */
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../../mock/node/index';
import { createTestMock, testClock } from '../support/mock-harness';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'keys-31.yaml');

let mock: MockServer;
let base: string;
beforeAll(async () => {
  mock = await createTestMock({ specPath: SPEC, seedFile: null, clock: testClock() });
  base = await mock.listen();
});
afterAll(() => mock.close());

const api = () => request(base);
const gadget = (name: string, size = 1) => ({
  apiVersion: 'v1',
  kind: 'Gadget',
  metadata: { name },
  spec: { size },
});
const names = (list: { items: { metadata: { name: string; namespace?: string } }[] }) =>
  list.items.map((i) => `${i.metadata.namespace ?? ''}/${i.metadata.name}`);

describe('an object keyed by metadata.name under a namespace', () => {
  const at = (ns: string, name = '') => `/api/namespaces/${ns}/gadgets${name ? `/${name}` : ''}`;

  it('is created, read back, listed, changed, and deleted only through its namespace', async () => {
    const made = await api().post(at('alpha')).send(gadget('dial', 2));
    expect(made.status).toBe(201);
    expect(made.body.metadata).toMatchObject({ name: 'dial', namespace: 'alpha' });
    expect(made.body).not.toHaveProperty('$key');
    expect((await api().get(at('alpha', 'dial'))).body.spec).toEqual({ size: 2 });
    expect((await api().get(at('beta', 'dial'))).status).toBe(404);
    expect(names((await api().get(at('alpha'))).body)).toEqual(['alpha/dial']);
    expect(names((await api().get(at('beta'))).body)).toEqual([]);
    const patched = await api()
      .patch(at('alpha', 'dial'))
      .set('content-type', 'application/merge-patch+json')
      .send({ spec: { size: 5 }, metadata: { name: 'renamed' } });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata.name).toBe('dial');
    const replaced = await api().put(at('alpha', 'dial')).send(gadget('dial', 7));
    expect(replaced.status).toBe(200);
    expect((await api().get(at('alpha', 'dial'))).body.spec).toEqual({ size: 7 });
    expect((await api().delete(at('beta', 'dial'))).status).toBe(404);
    expect((await api().delete(at('alpha', 'dial'))).status).toBe(200);
    expect((await api().get(at('alpha', 'dial'))).status).toBe(404);
  });

  it('keeps one name per namespace, and lists every namespace at the cluster-wide path', async () => {
    expect((await api().post(at('one')).send(gadget('knob'))).status).toBe(201);
    expect((await api().post(at('two')).send(gadget('knob'))).status).toBe(201);
    expect((await api().post(at('one')).send(gadget('knob'))).status).toBe(409);
    const all = names((await api().get('/api/gadgets')).body);
    expect(all).toEqual(expect.arrayContaining(['one/knob', 'two/knob']));
  });

  it('keys the namespace itself by metadata.name', async () => {
    expect(
      (
        await api()
          .post('/api/namespaces')
          .send({ kind: 'Namespace', metadata: { name: 'gamma' } })
      ).status,
    ).toBe(201);
    expect((await api().get('/api/namespaces/gamma')).body.metadata.name).toBe('gamma');
    expect((await api().get('/api/namespaces/delta')).status).toBe(404);
  });
});

describe('a repo created at /user/repos, found at /repos/{owner}/{repo}', () => {
  it('is read, changed and deleted through its owner and name', async () => {
    const made = await api().post('/user/repos').send({ name: 'tools', description: 'first' });
    expect(made.status).toBe(201);
    const owner = made.body.owner.login as string;
    expect(made.headers.location).toBe(`/repos/${owner}/tools`);
    expect((await api().get(`/repos/${owner}/tools`)).body).toMatchObject({
      name: 'tools',
      description: 'first',
    });
    expect((await api().get(`/repos/someone-else/tools`)).status).toBe(404);
    const listed = (await api().get('/user/repos')).body as { name: string }[];
    expect(listed.map((r) => r.name)).toContain('tools');
    expect((await api().patch(`/repos/${owner}/tools`).send({ description: 'second' })).status).toBe(200);
    expect((await api().get(`/repos/${owner}/tools`)).body.description).toBe('second');
    expect((await api().delete(`/repos/${owner}/tools`)).status).toBe(204);
    expect((await api().get(`/repos/${owner}/tools`)).status).toBe(404);
  });

  it('numbers issues per repo from 1, found only under their repo', async () => {
    const a = (await api().post('/user/repos').send({ name: 'a' })).body.owner.login as string;
    await api().post('/user/repos').send({ name: 'b' });
    const first = await api().post(`/repos/${a}/a/issues`).send({ title: 'one' });
    const second = await api().post(`/repos/${a}/a/issues`).send({ title: 'two' });
    const other = await api().post(`/repos/${a}/b/issues`).send({ title: 'elsewhere' });
    expect([first.body.number, second.body.number, other.body.number]).toEqual([1, 2, 1]);
    expect((await api().get(`/repos/${a}/a/issues/2`)).body.title).toBe('two');
    expect((await api().get(`/repos/${a}/b/issues/2`)).status).toBe(404);
    const listed = (await api().get(`/repos/${a}/b/issues`)).body as { title: string }[];
    expect(listed.map((i) => i.title)).toEqual(['elsewhere']);
    expect((await api().patch(`/repos/${a}/a/issues/1`).send({ state: 'closed' })).body.state).toBe('closed');
    expect((await api().get(`/repos/${a}/a/issues/1`)).body.state).toBe('closed');
    expect((await api().post(`/repos/${a}/nope/issues`).send({ title: 'x' })).status).toBe(404);
  });
});

describe('a project created under a workspace, found at /projects/{project_gid}', () => {
  it('carries the workspace from the path and is listed under it only', async () => {
    const made = await api()
      .post('/workspaces/w1/projects')
      .send({ data: { name: 'plan' } });
    expect(made.status).toBe(201);
    const gid = made.body.data.gid as string;
    expect(made.body.data).toMatchObject({ name: 'plan', workspace: { gid: 'w1' } });
    expect((await api().get(`/projects/${gid}`)).body.data.name).toBe('plan');
    const inW1 = (await api().get('/workspaces/w1/projects')).body.data as { gid: string }[];
    const inW2 = (await api().get('/workspaces/w2/projects')).body.data as { gid: string }[];
    expect(inW1.map((p) => p.gid)).toEqual([gid]);
    expect(inW2).toEqual([]);
    expect(
      (
        await api()
          .put(`/projects/${gid}`)
          .send({ data: { name: 'plan b' } })
      ).status,
    ).toBe(200);
    expect((await api().get(`/projects/${gid}`)).body.data.name).toBe('plan b');
    expect((await api().delete(`/projects/${gid}`)).status).toBe(200);
    expect((await api().get(`/projects/${gid}`)).status).toBe(404);
  });
});

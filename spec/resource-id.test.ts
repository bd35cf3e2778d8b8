/** The key an item path names (spec/resource-id.ts) and the resources joined across paths (spec/resource-join.ts). */
import { compileSpec } from './compile';
import { keyParams, recordKey } from './resource-key';
import { inferResources, type ResourceModel } from './resources';
import type { Resource } from './resource-types';

const json = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
const str = { type: 'string' };
const int = { type: 'integer' };
const param = (name: string, schema: unknown = str) => ({ name, in: 'path', required: true, schema });

/** A collection (create, list) and its item path (read) answering `item`. */
function crud(collection: string, itemPath: string, item: unknown, params: unknown[], x?: unknown) {
  const id = itemPath.replace(/\W/g, '');
  return {
    [collection]: {
      post: {
        operationId: `make${id}`,
        requestBody: { content: json(item).content },
        responses: { '201': json(item) },
      },
    },
    [itemPath]: {
      ...(x ? { 'x-mock': x } : {}),
      parameters: params,
      get: { operationId: `read${id}`, responses: { '200': json(item) } },
    },
  };
}

function model(paths: Record<string, unknown>): ResourceModel {
  const document = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths } as never;
  const spec = compileSpec('inline', document, false);
  const out = inferResources(spec);
  if (!out.ok) throw new Error(out.error);
  return out.model;
}

const resources = (paths: Record<string, unknown>): Resource[] => model(paths).resources;

const keyOf = (r: Resource | undefined) => (r?.key ? r.key.map((k) => k.pointer) : r?.idField);

describe('the key an item path names', () => {
  const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });

  it.each([
    [
      '{name} where only metadata has a name',
      object({ kind: str, metadata: object({ name: str, uid: str }) }),
      'name',
      ['/metadata/name'],
    ],
    ['{issue_number} is number, not id', object({ id: int, number: int }), 'issue_number', 'number'],
    ['{index} (of the issue) is number, not id', object({ id: int, number: int }), 'index', 'number'],
    [
      '{index} is index where the item has one',
      object({ id: int, index: int, number: int }),
      'index',
      'index',
    ],
    [
      '{customer} is id, never a nested customer',
      object({ id: str, name: str, discount: object({ customer: str }) }),
      'customer',
      'id',
    ],
    ['{repo} (a name) is name where id is an integer', object({ id: int, name: str }), 'repo', 'name'],
    ['{droplet_id} is id', object({ id: int, name: str }), 'droplet_id', 'id'],
    ['{widgetID} is id', object({ id: str, created: { type: 'string', readOnly: true } }), 'widgetID', 'id'],
  ])('%s', (_, item, p, expected) => {
    const [r] = resources(crud('/things', `/things/{${p}}`, item, [param(p)]));
    expect(keyOf(r)).toEqual(expected);
  });

  it('makes two parameters of an item path a composite key, read through an object field', () => {
    const repo = object({ id: int, name: str, owner: object({ login: str, id: int }) });
    const [r] = resources(crud('/repos', '/repos/{owner}/{repo}', repo, [param('owner'), param('repo')]));
    expect(r?.key).toEqual([
      { pointer: '/owner/login', param: 'owner' },
      { pointer: '/name', param: 'repo' },
    ]);
    const key = recordKey(r as Resource, { name: 'a/b', owner: { login: 'me' } });
    expect(key).toBe('me/a%2Fb');
    expect(keyParams(r as Resource, key as string)).toEqual({ owner: 'me', repo: 'a/b' });
  });

  it('takes the key x-mock gives: a property, a pointer, or one pointer per parameter', () => {
    const item = object({ id: str, ref: str, meta: object({ code: str }) });
    const by = (x: unknown, p = ['{ref}']) =>
      keyOf(
        resources(
          crud(
            '/things',
            `/things/${p.join('/')}`,
            item,
            p.map((s) => param(s.slice(1, -1))),
            x,
          ),
        )[0],
      );
    expect(by({ id: 'ref' })).toBe('ref');
    expect(by({ id: '/meta/code' })).toEqual(['/meta/code']);
    expect(by({ id: ['/ref', '/meta/code'] }, ['{a}', '{b}'])).toEqual(['/ref', '/meta/code']);
  });
});

describe('a key the document says is made from a field', () => {
  const member = {
    type: 'object',
    properties: {
      id: { type: 'string', readOnly: true, description: 'The MD5 hash of the lowercase email address.' },
      email_address: str,
    },
  };

  it('is read from the description, and x-mock.id leaves it drawn as usual', () => {
    const [r] = resources(crud('/members', '/members/{hash}', member, [param('hash')]));
    expect(r?.derivedKey).toEqual({ from: 'email_address', hash: 'md5', lowerCase: true });
    const [x] = resources(crud('/members', '/members/{hash}', member, [param('hash')], { id: 'id' }));
    expect([x?.idField, x?.derivedKey]).toEqual(['id', undefined]);
  });
});

describe('paths of one resource that do not share a skeleton', () => {
  const repo = {
    type: 'object',
    properties: { id: int, name: str, owner: { type: 'object', properties: { login: str } } },
  };

  it('joins an item path with no create to the create of the same items elsewhere', () => {
    const paths = crud('/user/repos', '/repos/{owner}/{repo}', repo, [param('owner'), param('repo')]);
    const [r, ...rest] = resources(paths);
    expect([r?.collectionPath, r?.itemPath, rest.length]).toEqual([
      '/user/repos',
      '/repos/{owner}/{repo}',
      0,
    ]);
  });

  it('never joins a create of other things that answers the same schema', () => {
    const paths = crud('/reports/{id}/runs', '/repos/{owner}/{repo}', repo, [param('owner'), param('repo')]);
    expect(resources(paths).map((r) => r.itemPath)).toEqual([]);
  });

  it('binds a nested create of the same items to the resource with the item path, beside a sub-collection of them', () => {
    const project = {
      type: 'object',
      properties: {
        gid: { type: 'string', readOnly: true },
        name: str,
        team: { type: 'object', properties: { gid: str } },
        workspace: { type: 'object', properties: { gid: str } },
      },
    };
    const team = { type: 'object', properties: { gid: { type: 'string', readOnly: true }, name: str } };
    const create = (id: string) => ({
      operationId: id,
      requestBody: { content: json(project).content },
      responses: { '201': json(project) },
    });
    const list = (id: string) => ({
      operationId: id,
      responses: { '200': json({ type: 'array', items: project }) },
    });
    const paths = {
      ...crud('/projects', '/projects/{project_gid}', project, [param('project_gid')]),
      ...crud('/teams', '/teams/{team_gid}', team, [param('team_gid')]),
      '/teams/{team_gid}/projects': {
        parameters: [param('team_gid')],
        post: create('createForTeam'),
        get: list('listForTeam'),
      },
      '/workspaces/{workspace_gid}/projects': {
        parameters: [param('workspace_gid')],
        post: create('createForWorkspace'),
        get: list('listForWorkspace'),
      },
    };
    const bound = model(paths).byOperation.get('createForWorkspace');
    expect([bound?.resource.itemPath, bound?.action, bound?.fields]).toEqual([
      '/projects/{project_gid}',
      'create',
      [{ pointer: '/workspace/gid', depth: 1 }],
    ]);
  });
});

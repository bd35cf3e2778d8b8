import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './paths';
import { checkStructure } from './check-structure';

const doc = (extra: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  paths: {
    '/things': {
      get: { operationId: 'listThings', responses: { '200': { $ref: '#/components/responses/Things' } } },
    },
  },
  components: { responses: { Things: { description: 'ok' } } },
  ...extra,
});

describe('checkStructure', () => {
  it('accepts a valid document with its $refs as written', () => {
    expect(() => checkStructure(doc())).not.toThrow();
  });

  it('accepts a described server variable (the published schema spells it `descriptions`)', () => {
    const servers = [{ url: '{base}/v1', variables: { base: { default: 'x', description: 'where' } } }];
    expect(() => checkStructure(doc({ servers }))).not.toThrow();
  });

  it('refuses a wrong type, naming the JSON pointer', () => {
    const bad = doc();
    (bad.paths['/things'].get as Record<string, unknown>).deprecated = 'maybe';
    expect(() => checkStructure(bad)).toThrow(/#\/paths\/~1things\/get\/deprecated must be boolean/);
  });

  it('refuses an unknown server variable field', () => {
    const servers = [{ url: '{base}', variables: { base: { default: 'x', descriptions: 'typo' } } }];
    expect(() => checkStructure(doc({ servers }))).toThrow(/#\/servers\/0\/variables\/base/);
  });

  it('accepts a license with only its name, and refuses one with both identifier and url (issue 30)', () => {
    const info = (license: unknown) => ({ info: { title: 'T', version: '1', license } });
    expect(() => checkStructure(doc(info({ name: 'MIT' })))).not.toThrow();
    expect(() => checkStructure(doc(info({ name: 'MIT', identifier: 'MIT' })))).not.toThrow();
    expect(() =>
      checkStructure(doc(info({ name: 'MIT', identifier: 'MIT', url: 'https://example.com/mit' }))),
    ).toThrow(/#\/info\/license/);
  });

  it('accepts vendor keys among the webhooks, and still checks each webhook (issue 30)', () => {
    const created = { post: { responses: { '200': { description: 'ok' } } } };
    expect(() => checkStructure(doc({ webhooks: { 'x-sdk-exclude': true, created } }))).not.toThrow();
    expect(() => checkStructure(doc({ webhooks: { created: { post: { deprecated: 'no' } } } }))).toThrow(
      /#\/webhooks\/created\/post\/deprecated/,
    );
  });

  it("accepts a link's parameter of any type (the text's `Any | {expression}`), 3.1 and 3.2 alike (issue 40)", () => {
    const linked = (openapi: string, value: unknown) => ({
      ...doc(),
      openapi,
      paths: {
        '/things': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                links: {
                  first: { operationId: 'getThing', parameters: { id: value, page: '$request.query.page' } },
                },
              },
            },
          },
        },
      },
    });
    for (const version of ['3.1.0', '3.2.0']) {
      expect(() => checkStructure(linked(version, 0))).not.toThrow();
      expect(() => checkStructure(linked(version, { nested: true }))).not.toThrow();
    }
    expect(() =>
      checkStructure({
        ...linked('3.1.0', 0),
        paths: {
          '/things': {
            get: { responses: { '200': { description: 'ok', links: { first: { parameters: 'x' } } } } },
          },
        },
      }),
    ).toThrow(/links\/first\/parameters/);
  });

  it('keeps its compiled check as a module, which a fresh process loads and judges with alike (issue 30)', () => {
    const dir = path.join(projectRoot(), 'node_modules', '.cache', 'spec-validation');
    const bad = doc();
    (bad.paths['/things'].get as Record<string, unknown>).deprecated = 'maybe';
    const fresh = (): typeof checkStructure => {
      let loaded: typeof checkStructure | undefined;
      jest.isolateModules(() => {
        loaded = jest.requireActual<{ checkStructure: typeof checkStructure }>(
          './check-structure',
        ).checkStructure;
      });
      return loaded as typeof checkStructure;
    };
    for (const f of fs.readdirSync(dir).filter((n) => n.startsWith('openapi-3.1-')))
      fs.rmSync(path.join(dir, f), { force: true });
    expect(() => fresh()(bad)).toThrow(/deprecated must be boolean/); // compiles, writes the module
    const written = fs.readdirSync(dir).filter((n) => /^openapi-3\.1-[0-9a-f]{16}\.js$/.test(n));
    expect(written).toHaveLength(1);
    const again = fresh(); // loads the module
    expect(() => again(doc())).not.toThrow();
    expect(() => again(bad)).toThrow(/#\/paths\/~1things\/get\/deprecated must be boolean/);
  });
});

describe('checkStructure on OpenAPI 3.2 (issue 33)', () => {
  const doc32 = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    openapi: '3.2.0',
    info: { title: 'T', version: '1' },
    paths,
    ...extra,
  });
  const ok = { responses: { '200': { description: 'ok' } } };

  it("accepts 3.2's additions: QUERY, additionalOperations, querystring, $self, tags, OAuth device flow, dataValue", () => {
    const document = doc32(
      {
        '/things': {
          query: {
            parameters: [
              {
                name: 'q',
                in: 'querystring',
                content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
              },
            ],
            ...ok,
          },
          additionalOperations: { COPY: ok },
        },
      },
      {
        $self: 'https://example.com/openapi',
        tags: [
          { name: 'a', kind: 'nav', summary: 'A' },
          { name: 'b', parent: 'a' },
        ],
        components: {
          examples: { One: { dataValue: { id: 1 }, serializedValue: '{"id":1}' } },
          securitySchemes: {
            o: {
              type: 'oauth2',
              deprecated: true,
              oauth2MetadataUrl: 'https://example.com/.well-known/oauth-authorization-server',
              flows: {
                deviceAuthorization: {
                  deviceAuthorizationUrl: 'https://example.com/device',
                  tokenUrl: 'https://example.com/token',
                  scopes: {},
                },
              },
            },
          },
        },
      },
    );
    expect(() => checkStructure(document)).not.toThrow();
  });

  it('names the place a 3.2 document breaks the 3.2 schema', () => {
    expect(() => checkStructure(doc32({ '/things': { query: { ...ok, deprecated: 'maybe' } } }))).toThrow(
      /breaks the OpenAPI 3\.2 schema:\n {2}#\/paths\/~1things\/query\/deprecated must be boolean/,
    );
  });

  it('judges 3.2 fields in a 3.1 document by the 3.1 schema', () => {
    expect(() =>
      checkStructure({ ...doc32({}), openapi: '3.1.0', tags: [{ name: 'b', parent: 'a' }] }),
    ).toThrow(/OpenAPI 3\.1 schema/);
  });
});

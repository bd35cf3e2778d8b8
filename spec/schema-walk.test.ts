import { escapePointer, forEachSchema } from './schema-walk';

const visited = (document: unknown): string[] => {
  const out: string[] = [];
  forEachSchema(document, (_, at) => out.push(at()));
  return out;
};

describe('forEachSchema', () => {
  it('visits named components first, then schemas of parameters, bodies, responses and headers', () => {
    const document = {
      paths: {
        '/a/{id}': {
          parameters: [{ name: 'id', in: 'path', schema: { type: 'string' } }],
          post: {
            requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
            responses: {
              '200': {
                headers: { 'X-Rate': { schema: { type: 'integer' } } },
                content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } },
              },
            },
          },
        },
      },
      components: { schemas: { 'A/B': { type: 'string' } } },
    };
    expect(visited(document)).toEqual([
      '#/components/schemas/A~1B',
      '#/paths/~1a~1{id}/parameters/0/schema',
      '#/paths/~1a~1{id}/post/requestBody/content/application~1json/schema',
      '#/paths/~1a~1{id}/post/responses/200/headers/X-Rate/schema',
      '#/paths/~1a~1{id}/post/responses/200/content/application~1json/schema',
      '#/paths/~1a~1{id}/post/responses/200/content/application~1json/schema/items',
    ]);
  });

  it('descends into every subschema keyword, but not into property names, examples or vendor data', () => {
    const schema = {
      properties: { items: { type: 'string' }, example: { type: 'number' } },
      allOf: [{ type: 'object' }],
      prefixItems: [{ type: 'string' }],
      additionalProperties: { type: 'string' },
      not: { type: 'null' },
      if: {},
      then: {},
      else: {},
      $defs: { d: {} },
      example: { properties: { x: {} } },
      examples: [{ properties: { y: {} } }],
      'x-vendor': { properties: { z: {} } },
    };
    const at = visited({ components: { schemas: { S: schema } } }).map((p) =>
      p.replace('#/components/schemas/S', ''),
    );
    expect(at.sort()).toEqual(
      [
        '',
        '/properties/items',
        '/properties/example',
        '/allOf/0',
        '/prefixItems/0',
        '/additionalProperties',
        '/not',
        '/if',
        '/then',
        '/else',
        '/$defs/d',
      ].sort(),
    );
  });

  it('visits a shared or circular schema once, where it is first found', () => {
    const node: Record<string, unknown> = { type: 'object' };
    node.properties = { self: node };
    const document = {
      paths: { '/n': { get: { responses: { '200': { content: { 'a/json': { schema: node } } } } } } },
      components: { schemas: { Node: node } },
    };
    expect(visited(document)).toEqual(['#/components/schemas/Node']);
  });

  it('skips examples and vendor extensions outside schemas', () => {
    const document = {
      paths: {
        '/e': {
          'x-data': { schema: { type: 'string' } },
          get: {
            responses: {
              '200': {
                content: {
                  'a/json': { examples: { one: { value: { schema: {} } } }, example: { schema: {} } },
                },
              },
            },
          },
        },
      },
    };
    expect(visited(document)).toEqual([]);
  });

  it.each([
    ['a/b', 'a~1b'],
    ['~x', '~0x'],
  ])('escapes %j as %j', (key, escaped) => expect(escapePointer(key)).toBe(escaped));
});

import { checkStructure } from './check-structure';
import { rewriteLeftoverNullable, toOpenApi31 } from './upgrade';

const info = { title: 't', version: '1' };

describe('toOpenApi31', () => {
  it('upgrades 3.0: nullable, boolean exclusive bounds and example become their 3.1 forms', async () => {
    const result = await toOpenApi31({
      openapi: '3.0.3',
      info,
      paths: {},
      components: {
        schemas: {
          Tag: { type: 'string', nullable: true, example: 'dog', 'x-model': true },
          Limit: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
          Ref: { allOf: [{ $ref: '#/components/schemas/Tag' }], nullable: true },
        },
      },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.notes).toEqual([]);
    expect(result.document.openapi).toMatch(/^3\.1\./);
    expect(result.document.components).toEqual({
      schemas: {
        Tag: { type: ['string', 'null'], examples: ['dog'], 'x-model': true },
        Limit: { type: 'integer', exclusiveMinimum: 0, maximum: 9 },
        Ref: { anyOf: [{ $ref: '#/components/schemas/Tag' }, { type: 'null' }] },
      },
    });
  });

  it("mends what 3.0 allowed and 3.1 words otherwise: a Reference's siblings, a callback in x-webhooks (issue 40)", async () => {
    const hook = { post: { responses: { '200': { description: 'OK' } } } };
    const result = await toOpenApi31({
      openapi: '3.0.0',
      info,
      paths: {
        '/download': {
          get: {
            responses: {
              '200': {
                $ref: '#/components/responses/File',
                headers: { 'Content-Disposition': { schema: {} } },
              },
            },
          },
        },
      },
      components: { responses: { File: { description: 'a file' } } },
      'x-webhooks': { asyncResponse: { '{$request.query.callback}': hook } },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const get = (result.document.paths as Record<string, { get: { responses: Record<string, unknown> } }>)[
      '/download'
    ]?.get;
    expect(get?.responses['200']).toEqual({ $ref: '#/components/responses/File' });
    expect((result.document.webhooks as Record<string, unknown>).asyncResponse).toEqual(hook);
    expect(() => checkStructure(result.document)).not.toThrow();
  });

  it('leaves a 3.1 document as it is', async () => {
    const document = { openapi: '3.1.0', info, paths: {}, components: { schemas: { A: { examples: [1] } } } };
    const result = await toOpenApi31(structuredClone(document));
    expect(result).toEqual({ ok: true, document, notes: [] });
  });

  it('keeps a 3.2 document as written: 3.2 adds to 3.1, and its additions are read where they matter', async () => {
    const document = { openapi: '3.2.0', info, paths: { '/a': { query: { responses: {} } } } };
    const result = await toOpenApi31(document);
    expect(result).toEqual({ ok: true, document, notes: [] });
    if (result.ok) expect(result.document).toBe(document);
  });

  it('reads Swagger 2.0 schemes without a host as the relative server the document is served from', async () => {
    const result = await toOpenApi31({
      swagger: '2.0',
      info,
      basePath: '/api',
      schemes: ['https', 'http'],
      paths: {},
    });
    expect(result.ok && result.document).toMatchObject({ servers: [{ url: '/api' }] });
    expect(result.ok && Object.keys(result.document)).not.toContain('schemes');
  });

  it('converts Swagger 2.0, and says how to convert the file for good', async () => {
    const result = await toOpenApi31({
      swagger: '2.0',
      info,
      host: 'api.example.com',
      basePath: '/v2',
      schemes: ['https'],
      securityDefinitions: { basic: { type: 'basic' } },
      paths: {
        '/pets': {
          post: {
            operationId: 'addPet',
            consumes: ['application/json'],
            parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/Pet' } }],
            responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Pet' } } },
          },
        },
      },
      definitions: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const document = result.document;
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.servers).toEqual([{ url: 'https://api.example.com/v2' }]);
    expect(document.components).toMatchObject({
      securitySchemes: { basic: { type: 'http', scheme: 'basic' } },
    });
    expect(document.paths).toMatchObject({
      '/pets': {
        post: {
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        },
      },
    });
    expect(result.notes).toEqual([
      expect.stringMatching(/Swagger 2\.0 .*swagger2openapi.*Convert to OpenAPI 3/),
    ]);
  });

  it.each([
    [{ swagger: '1.2' }, /unsupported Swagger version "1.2"/],
    [{ openapi: '3.3.0' }, /unsupported OpenAPI version "3.3.0": OpenAPI 3.0.x, 3.1.x and 3.2.x/],
    [{ openapi: 3.1 }, /unsupported OpenAPI version 3.1:/],
    [{ info }, /unsupported OpenAPI version \(none\)/],
    [[], /not an object/],
  ])('refuses %j', async (document, message) => {
    const result = await toOpenApi31(document);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});

describe('rewriteLeftoverNullable', () => {
  it.each([
    [{ type: 'string', nullable: true }, { type: ['string', 'null'] }],
    [{ type: ['string', 'integer'], nullable: true }, { type: ['string', 'integer', 'null'] }],
    [{ type: ['string', 'null'], nullable: true }, { type: ['string', 'null'] }],
    [{ type: 'string', nullable: false }, { type: 'string' }],
    [{ properties: { a: {} }, nullable: true }, { properties: { a: {} } }],
    [{ type: 'string' }, { type: 'string' }],
  ])('%j -> %j', (schema, expected) => {
    const document = { components: { schemas: { S: schema } } };
    rewriteLeftoverNullable(document);
    expect(document.components.schemas.S).toEqual(expected);
  });
});

describe('3.0 nullable left in a 3.1 document (issue 26.9)', () => {
  it('is honoured, with one note at start however many schemas carry it', async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: { A: { type: 'string', nullable: true }, B: { type: 'integer', nullable: true } },
      },
    };
    const result = await toOpenApi31(document);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const schemas = (result.document as typeof document).components.schemas;
    expect(schemas.A).toEqual({ type: ['string', 'null'] });
    expect(result.notes).toEqual([
      expect.stringMatching(/^2 schema\(s\) use the OpenAPI 3\.0 keyword nullable/),
    ]);
  });
});

/** Shapes the OpenAPI schemas refuse but every reader reads one way: mended, and said once (issue 39, EMB's ncs). */
import path from 'node:path';
import { mendOpenShapes } from './mend-open-shapes';
import { loadSpec } from './load';

type Json = Record<string, unknown>;

const swagger2 = (): Json => ({
  swagger: '2.0',
  info: { title: 't', version: '1' },
  parameters: { shared: { name: 'id', in: 'path', type: 'string' } },
  paths: {
    '/a/{x}/{id}': {
      parameters: [{ $ref: '#/parameters/shared' }],
      get: {
        parameters: [{ name: 'x', in: 'path', required: false, type: 'integer' }],
        responses: {
          '200': {
            description: 'OK',
            schema: { $ref: '#/definitions/D', originalRef: 'D', description: 'kept', 'x-kept': 1 },
            examples: { 'application/json': { $ref: 'data, not a reference', originalRef: 'kept' } },
          },
        },
      },
    },
  },
  definitions: { D: { type: 'object' } },
});

describe('mendOpenShapes', () => {
  it('reads every path parameter as required, shared ones too, and says where', () => {
    const doc = swagger2();
    const notes = mendOpenShapes(doc);
    expect(doc).toMatchObject({
      parameters: { shared: { required: true } },
      paths: { '/a/{x}/{id}': { get: { parameters: [{ required: true }] } } },
    });
    expect(notes[0]).toMatch(/^path parameters not marked required: 2 read as required/);
    expect(notes[0]).toContain('#/paths/~1a~1{x}~1{id}/get/parameters/0');
  });

  it('leaves out, in Swagger 2.0, what no Schema Object has beside a $ref (springfox originalRef), not in data', () => {
    const doc = swagger2();
    const notes = mendOpenShapes(doc);
    const response = ((doc.paths as Json)['/a/{x}/{id}'] as { get: { responses: Record<string, Json> } }).get
      .responses['200'] as Json;
    expect(response.schema).toEqual({ $ref: '#/definitions/D', description: 'kept', 'x-kept': 1 });
    expect(response.examples).toEqual({
      'application/json': { $ref: 'data, not a reference', originalRef: 'kept' },
    });
    expect(notes[1]).toMatch(/^keys beside \$ref that Swagger 2\.0 ignores: 1 left out \(originalRef\)/);
  });

  it("moves a property's own required: true into its object's required list, and drops a false one", () => {
    const doc: Json = {
      openapi: '3.0.3',
      paths: {},
      components: {
        schemas: {
          Person: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string' },
              born: { type: 'string', required: true },
              nick: { required: false },
            },
            example: { properties: { a: { required: true } } },
          },
        },
      },
    };
    const notes = mendOpenShapes(doc);
    const person = (doc.components as { schemas: Record<string, Json> }).schemas.Person as Json;
    expect(person.required).toEqual(['name', 'born']);
    expect(person.properties).toEqual({ name: { type: 'string' }, born: { type: 'string' }, nick: {} });
    expect(person.example).toEqual({ properties: { a: { required: true } } });
    expect(notes).toEqual([
      expect.stringMatching(/^properties marked required: true on themselves: 2 moved/),
    ]);
  });

  it('says nothing of a document with nothing to mend', () => {
    const doc: Json = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} };
    expect(mendOpenShapes(doc)).toEqual([]);
  });

  it('mends path parameters in OpenAPI 3 as well (components.parameters)', () => {
    const doc: Json = {
      openapi: '3.0.3',
      paths: { '/a/{id}': { parameters: [{ $ref: '#/components/parameters/id' }] } },
      components: { parameters: { id: { name: 'id', in: 'path', schema: { type: 'string' } } } },
    };
    expect(mendOpenShapes(doc)).toEqual([expect.stringContaining('(at #/components/parameters/id)')]);
  });
});

it('loads a springfox Swagger 2.0 document (fixtures/specs/wild/public/springfox-20.json) with two warnings', async () => {
  process.env.SPEC_VALIDATION_CACHE = 'off';
  try {
    const file = path.join(__dirname, '..', 'fixtures', 'specs', 'wild', 'public', 'springfox-20.json');
    const loaded = await loadSpec(file);
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.warnings.map((w) => w.replace(/ \(.*$/, ''))).toEqual([
      'path parameters not marked required: 2 read as required, as a path cannot match without them',
      'keys beside $ref that Swagger 2.0 ignores: 3 left out',
      expect.stringMatching(/^Swagger 2\.0 document converted/),
    ]);
    const length = loaded.spec.operations.find((o) => o.operationId === 'lengthUsingGET');
    expect(length?.pathParamSpecs.map((p) => p.required)).toEqual([true, true, true]);
  } finally {
    delete process.env.SPEC_VALIDATION_CACHE;
  }
});

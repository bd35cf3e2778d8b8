/**
 * A family of OpenAPI documents of the same shapes and any size, for the large-document bench and test: `n`
 * resources, each with a list, a create, a read, a replace and a delete (5 operations), items sharing component
 * schemas (an address, tags, an owner that refers to itself) and one error schema.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** A document with `operations` operations (rounded up to a multiple of 5). */
export function syntheticDocument(operations: number): OpenAPIV3_1.Document {
  const resources = Math.max(1, Math.ceil(operations / 5));
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {
    Error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
    Address: {
      type: 'object',
      required: ['city'],
      properties: {
        street: { type: 'string' },
        city: { type: 'string', minLength: 1 },
        zip: { type: 'string' },
      },
    },
    Tag: { type: 'object', properties: { name: { type: 'string', maxLength: 40 } } },
    Owner: {
      type: 'object',
      properties: { name: { type: 'string' }, address: ref('Address'), deputy: ref('Owner') },
    },
  };
  const errors = { '400': json(ref('Error')), '401': json(ref('Error')), '404': json(ref('Error')) };
  for (let i = 0; i < resources; i++) {
    const item = `Item${i}`;
    schemas[item] = {
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'integer', readOnly: true },
        name: { type: 'string', minLength: 1, maxLength: 100 },
        status: { type: 'string', enum: ['active', 'archived'] },
        address: ref('Address'),
        owner: ref('Owner'),
        tags: { type: 'array', items: ref('Tag'), maxItems: 20 },
      },
    };
    const desc = (d: string) => ({ description: d });
    const tags = [`group${i % 10}`];
    paths[`/r${i}`] = {
      get: {
        operationId: `list${i}`,
        tags,
        responses: {
          '200': { ...desc('ok'), ...json({ type: 'array', items: ref(item) }) },
          '401': { ...desc('no'), ...errors['401'] },
        },
      },
      post: {
        operationId: `create${i}`,
        tags,
        requestBody: { required: true, ...json(ref(item)) },
        responses: {
          '201': { ...desc('made'), ...json(ref(item)) },
          '400': { ...desc('bad'), ...errors['400'] },
          '401': { ...desc('no'), ...errors['401'] },
        },
      },
    };
    paths[`/r${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        operationId: `read${i}`,
        tags,
        responses: {
          '200': { ...desc('ok'), ...json(ref(item)) },
          '404': { ...desc('none'), ...errors['404'] },
        },
      },
      put: {
        operationId: `replace${i}`,
        tags,
        requestBody: { required: true, ...json(ref(item)) },
        responses: {
          '200': { ...desc('ok'), ...json(ref(item)) },
          '400': { ...desc('bad'), ...errors['400'] },
          '404': { ...desc('none'), ...errors['404'] },
        },
      },
      delete: {
        operationId: `delete${i}`,
        tags,
        responses: { '204': desc('gone'), '404': { ...desc('none'), ...errors['404'] } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: `Synthetic ${resources * 5}`, version: '1.0.0' },
    servers: [{ url: 'https://synthetic.example.com/v1' }],
    security: [{ bearer: [] }],
    paths: paths as OpenAPIV3_1.PathsObject,
    components: {
      schemas: schemas as Record<string, OpenAPIV3_1.SchemaObject>,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
}

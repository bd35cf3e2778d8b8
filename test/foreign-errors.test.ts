/**
 * Issue 38: the mock's own errors in the document's own error shape, on small documents of our own: a shape
 * shown only in the description's prose (Hetzner Cloud's), a code from the schema's enum, a code in the form
 * an example shows, a `4XX` range; each answer validates against what the document documents for that status.
 * And a list envelope holding a second list of links (Mailchimp's `_links`) still lists the stored records.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { MockServer } from '../mock/node/index';
import { documentedResponse, loadSpecOrThrow } from '../spec/load';
import { createTestMock, testClock } from './support/mock-harness';

const json = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
const key = {
  type: 'object',
  properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
  required: ['id', 'name'],
};
const link = { type: 'object', properties: { href: { type: 'string' }, rel: { type: 'string' } } };

/** Google's shape: the integer code is the status, the string status the machine code. */
const google = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: {
        code: { type: 'integer' },
        message: { type: 'string' },
        status: { type: 'string', example: 'INVALID_ARGUMENT' },
      },
    },
  },
};

const PROSE = `Keys.\n\n## Errors\nThe error response contains \`code\` and \`message\`.\n\n\`\`\`json
{\n  "error": {\n    "code": "invalid_input",\n    "message": "invalid input in field 'name'",\n    "details": {}\n  }\n}\n\`\`\`\n`;

const documents = {
  prose: {
    openapi: '3.1.0',
    info: { title: 'prose errors', version: '1', description: PROSE },
    paths: {
      '/keys': {
        get: {
          operationId: 'listKeys',
          responses: {
            '200': json({
              type: 'object',
              properties: {
                keys: { type: 'array', items: key },
                _links: { type: 'array', items: link },
                total_items: { type: 'integer' },
              },
            }),
          },
        },
        post: {
          operationId: 'createKey',
          requestBody: { content: { 'application/json': { schema: key } } },
          responses: { '201': json(key) },
        },
      },
      '/keys/{id}': {
        get: {
          operationId: 'getKey',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': json(key) },
        },
      },
    },
  },
  coded: {
    openapi: '3.1.0',
    info: { title: 'coded errors', version: '1' },
    paths: {
      '/things': {
        post: {
          operationId: 'createThing',
          requestBody: { content: { 'application/json': { schema: key } } },
          responses: { '201': json(key), default: json(google) },
        },
      },
      '/gadgets': {
        post: {
          operationId: 'createGadget',
          requestBody: { content: { 'application/json': { schema: key } } },
          responses: { '201': json(key) },
        },
      },
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          security: [{ token: [] }],
          responses: {
            '200': json(key),
            '4XX': json({
              type: 'object',
              required: ['errors'],
              properties: {
                errors: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['code', 'message'],
                    properties: {
                      code: {
                        type: 'string',
                        enum: ['InvalidRequest', 'ResourceNotFound', 'InvalidAuthorization'],
                      },
                      message: { type: 'string' },
                    },
                  },
                },
              },
            }),
          },
        },
      },
      '/gadgets/{id}': {
        get: {
          operationId: 'getGadget',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            '200': json(key),
            default: json(google),
          },
        },
      },
    },
    components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
  },
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'foreign-errors-'));
const file = (name: keyof typeof documents) => {
  const f = path.join(dir, `${name}.json`);
  fs.writeFileSync(f, JSON.stringify(documents[name]));
  return f;
};
const mocks: MockServer[] = [];
async function start(name: keyof typeof documents) {
  const mock = await createTestMock({
    specPath: file(name),
    seedFile: null,
    clock: testClock(),
    keys: [{ key: 'good-key-0123456789', plan: 'pro' }],
  });
  mocks.push(mock);
  return { http: request(await mock.listen()), spec: await loadSpecOrThrow(file(name)) };
}
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('an error shape shown only in the description', () => {
  it('answers a missing item in that shape, with the code in the form its example shows', async () => {
    const { http } = await start('prose');
    const res = await http.get('/keys/987654321');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('lists the stored records where the list envelope also holds a list of links', async () => {
    const { http } = await start('prose');
    const made = await http.post('/keys').send({ name: 'kit' });
    expect(made.status).toBe(201);
    const list = await http.get('/keys');
    expect(list.body.keys).toEqual([{ id: made.body.id, name: 'kit' }]);
    expect(list.body.total_items).toBe(1);
  });
});

describe('codes as the schema writes them', () => {
  it('takes the enum value that says the same thing, under a 4XX range, valid against it', async () => {
    const { http, spec } = await start('coded');
    const op = spec.operations.find((o) => o.operationId === 'getThing');
    const unknown = await http.get('/things/1').set('Authorization', 'Bearer good-key-0123456789');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('ResourceNotFound');
    const noKey = await http.get('/things/1');
    expect(noKey.status).toBe(401);
    expect(noKey.body.errors[0].code).toBe('InvalidAuthorization');
    for (const res of [unknown, noKey])
      expect(documentedResponse(op!, res.status)?.validateBody?.(res.body)).toBe(true);
  });

  it('writes a string status in the form its example shows, the integer code the status', async () => {
    const { http, spec } = await start('coded');
    const res = await http.get('/gadgets/1');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: expect.any(String), status: 'NOT_FOUND' } });
    const op = spec.operations.find((o) => o.operationId === 'getGadget');
    expect(documentedResponse(op!, 404)?.validateBody?.(res.body)).toBe(true);
  });
});

import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec } from './compile';
import { createErrorShaper } from './error-shape';

const problem = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
};
const document = {
  openapi: '3.1.0',
  info: { title: 'shapes', version: '1' },
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array' } } } },
          '401': { description: 'no', content: { 'application/json': { schema: problem } } },
        },
      },
    },
  },
} as unknown as OpenAPIV3_1.Document;

describe('renderBytes: errors serialised once and reused', () => {
  const spec = compileSpec('document', document, false);
  const op = spec.operations[0];
  const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as unknown;

  it('gives the bytes of render, and the same bytes again for the same error', () => {
    const shaper = createErrorShaper(spec);
    const error = { code: 'unauthorized', message: 'The API key is missing or invalid: unknown API key.' };
    const first = shaper.renderBytes(op, 401, error);
    expect(first.contentType).toBe('application/json');
    expect(decode(first.body)).toEqual(shaper.render(op, 401, error).body);
    expect(decode(first.body)).toEqual({ ...error, status: 401 });
    expect(shaper.renderBytes(op, 401, { ...error }).body).toBe(first.body);
  });

  it('tells errors apart by status, code and message, and stays right beyond its bound and for long messages', () => {
    const shaper = createErrorShaper(spec);
    for (let i = 0; i < 600; i++) {
      const error = { code: i % 2 ? 'not_found' : 'gone', message: `no operation at /x/${i % 300}` };
      for (const status of [404, 410])
        expect(decode(shaper.renderBytes(undefined, status, error).body)).toEqual(
          shaper.render(undefined, status, error).body,
        );
    }
    const long = { code: 'not_found', message: `no operation at /${'y'.repeat(5000)}` };
    expect(decode(shaper.renderBytes(op, 401, long).body)).toEqual(shaper.render(op, 401, long).body);
  });
});

describe('required fields no mapping names are filled by what they mean (issue 26.7)', () => {
  const doc = (schema: unknown) =>
    ({
      openapi: '3.1.0',
      info: { title: 'shapes', version: '1' },
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array' } } } },
              '404': { description: 'no', content: { 'application/json': { schema } } },
            },
          },
        },
      },
    }) as unknown as OpenAPIV3_1.Document;
  const error = { code: 'not_found', message: 'no thing with id 7' };

  it('a payment provider style: name is the machine code, debug_id a fresh id per error', () => {
    const spec = compileSpec(
      'document',
      doc({
        type: 'object',
        required: ['name', 'message', 'debug_id'],
        properties: { name: { type: 'string' }, message: { type: 'string' }, debug_id: { type: 'string' } },
      }),
      false,
    );
    const shaper = createErrorShaper(spec);
    const decode = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b)) as Record<string, string>;
    const first = decode(shaper.renderBytes(spec.operations[0], 404, error).body);
    const second = decode(shaper.renderBytes(spec.operations[0], 404, error).body);
    expect(first).toMatchObject({ name: 'not_found', message: error.message });
    expect(first.debug_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.debug_id).not.toBe(first.debug_id);
  });

  it('a blogging API style: errors.body is a list holding the message', () => {
    const spec = compileSpec(
      'document',
      doc({
        type: 'object',
        required: ['errors'],
        properties: {
          errors: {
            type: 'object',
            required: ['body'],
            properties: { body: { type: 'array', items: { type: 'string' } } },
          },
        },
      }),
      false,
    );
    const body = createErrorShaper(spec).render(spec.operations[0], 404, error).body;
    expect(body).toEqual({ errors: { body: [error.message] } });
  });

  it('a JSON:API style: errors is a list of one error, its code the status and its title the reason', () => {
    const item = {
      type: 'object',
      required: ['code', 'title'],
      properties: { code: { type: 'integer' }, title: { type: 'string' }, detail: { type: 'string' } },
    };
    const spec = compileSpec(
      'document',
      doc({ type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: item } } }),
      false,
    );
    const body = createErrorShaper(spec).render(spec.operations[0], 404, error).body;
    expect(body).toEqual({ errors: [{ code: 404, title: 'Not Found', detail: error.message }] });
  });
});

import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec } from '../../spec/compile';
import { dereference } from '../../spec/deref';
import { inferResources } from '../../spec/resources';
import { checkUnexpectedBody, checkValue, compileBodyChecks } from './body-check';

/** A create whose schema has a readOnly id (so the request view differs from the component) and one without. */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const create = (operationId: string, schema: string): OpenAPIV3_1.OperationObject => ({
  operationId,
  requestBody: { required: true, content: { 'application/json': { schema: ref(schema) } } },
  responses: { '201': { description: 'stored', content: { 'application/json': { schema: ref(schema) } } } },
});
const document = {
  openapi: '3.1.0',
  info: { title: 'Bounds', version: '1' },
  servers: [{ url: '/v1' }],
  paths: {
    '/schedules': { post: create('createSchedule', 'Schedule') },
    '/notes': { post: create('createNote', 'Note') },
  },
  components: {
    schemas: {
      Schedule: {
        type: 'object',
        required: ['id', 'cron'],
        properties: { id: { type: 'string', readOnly: true }, cron: { type: 'string' } },
      },
      Note: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
    },
  },
} as OpenAPIV3_1.Document;

describe('the settings bounds of a request body (bodyBounds, keyed by component schema)', () => {
  const spec = compileSpec('bounds.yaml', dereference(document), false);
  const inferred = inferResources(spec);
  if (!inferred.ok) throw new Error(inferred.error);
  const checks = compileBodyChecks(spec, inferred.model, {
    allowUnknownFields: false,
    rules: { Schedule: { cron: { maxLength: 5 } }, Note: { text: { maxLength: 3 } } },
  });

  it.each([
    ['createSchedule', { cron: '123456' }, { cron: '12345' }],
    ['createNote', { text: 'abcd' }, { text: 'abc' }],
  ])('%s: past the bound is a 400 naming the field, within it passes', (operationId, over, within) => {
    const check = checks.get(operationId);
    if (!check) throw new Error(`no body check for ${operationId}`);
    const refused = checkValue(check, over);
    expect('status' in refused && refused.status).toBe(400);
    expect(JSON.stringify(refused)).toContain(Object.keys(over)[0]);
    expect(checkValue(check, within)).toEqual({ value: within });
  });
});

describe('checkUnexpectedBody (an operation that documents no body)', () => {
  const bytes = (text: string) => ({ bytes: new TextEncoder().encode(text), tooLarge: false });

  it('refuses bytes sent with a Content-Type with 415, unless the settings say ignore', () => {
    expect(checkUnexpectedBody(bytes('{}'), 'application/json', {})).toMatchObject({
      status: 415,
      error: { code: 'unsupported_media_type' },
    });
    expect(checkUnexpectedBody({ bytes: new Uint8Array(0), tooLarge: true }, 'text/plain', {})).toMatchObject(
      {
        status: 415,
      },
    );
    expect(
      checkUnexpectedBody(bytes('{}'), 'application/json', { unexpectedBody: 'ignore' }),
    ).toBeUndefined();
  });

  it('lets no body, an empty one and one without a Content-Type through', () => {
    expect(checkUnexpectedBody(undefined, 'application/json', {})).toBeUndefined();
    expect(checkUnexpectedBody(bytes(''), 'application/json', {})).toBeUndefined();
    expect(checkUnexpectedBody(bytes('x'), undefined, {})).toBeUndefined();
  });
});

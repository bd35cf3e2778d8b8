/** Routing: a concrete path wins over a templated one, whatever their order in the document. */
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec } from '../../../spec/compile';
import { matchOperation } from './route';

const op = (operationId: string) => ({
  operationId,
  responses: { '200': { description: 'ok' } },
});

const spec = compileSpec(
  'routes',
  {
    openapi: '3.1.0',
    info: { title: 'routes', version: '1' },
    paths: {
      '/pet/{petId}': {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        get: op('getPet'),
        delete: op('deletePet'),
      },
      '/pet/findByStatus': { get: op('findByStatus') },
    },
  } as unknown as OpenAPIV3_1.Document,
  false,
);

it('routes /pet/findByStatus to its own operation, not to /pet/{petId} written before it', () => {
  const m = matchOperation(spec, '', 'GET', '/pet/findByStatus');
  expect('operation' in m && m.operation.operationId).toBe('findByStatus');
  const item = matchOperation(spec, '', 'GET', '/pet/7');
  expect('operation' in item && item.operation.operationId).toBe('getPet');
});

it('answers 405 with the concrete path’s methods only, each once', () => {
  const m = matchOperation(spec, '', 'PATCH', '/pet/findByStatus');
  expect('error' in m && m.error.headers?.Allow).toBe('GET');
  const item = matchOperation(spec, '', 'PATCH', '/pet/7');
  expect('error' in item && item.error.headers?.Allow).toBe('GET, DELETE');
});

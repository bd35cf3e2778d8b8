/** compileSpec tolerates what documents carry in their schemas even without the Node loader (browser, fetch). */
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec } from './compile';

it('compiles a document passed in with x- keywords and a custom format inside its schemas', () => {
  const country = { type: 'string', format: 'iso-3166-alpha-2', 'x-label': 'Country' };
  const document = {
    openapi: '3.1.0',
    info: { title: 'inline', version: '1' },
    paths: {
      '/addresses': {
        post: {
          operationId: 'addAddress',
          requestBody: {
            content: {
              'application/json': {
                schema: { type: 'object', 'x-my-model': true, properties: { country } },
              },
            },
          },
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  } as unknown as OpenAPIV3_1.Document;
  const spec = compileSpec('inline', document, true);
  const validate = spec.byId.get('addAddress')?.requestBody?.validate;
  expect(validate?.({ country: 'anything' })).toBe(true);
  expect(validate?.({ country: 1 })).toBe(false);
});

import { compileSpec } from '../../spec/load';
import { missingRequired, requiredParamText } from './required-params';

const spec = compileSpec(
  'doc.json',
  {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          parameters: [
            { name: 'tenant', in: 'header', required: true, schema: { type: 'string', examples: ['acme'] } },
            { name: 'Accept', in: 'header', required: true, schema: { type: 'string' } },
            { name: 'page', in: 'query', required: true, schema: { type: 'integer', minimum: 3 } },
            { name: 'size', in: 'query', schema: { type: 'integer' } },
          ],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  },
  true,
);
const op = spec.byId.get('listThings');

describe('missingRequired: every required query and header parameter the request does not name', () => {
  it('fills the missing ones with valid values, leaves optional and ignored headers alone', () => {
    const filled = missingRequired(op, { query: () => false, headers: {} });
    expect(filled.headers).toEqual({ tenant: 'acme' });
    expect(Object.keys(filled.query)).toEqual(['page']);
    expect(Number(filled.query.page)).toBeGreaterThanOrEqual(3);
  });

  it('keeps what the request already carries (header names in any case)', () => {
    const filled = missingRequired(op, { query: (n) => n === 'page', headers: { TENANT: 'x' } });
    expect(filled).toEqual({ query: {}, headers: {} });
  });

  it('a value is valid against the parameter', () => {
    const page = op?.queryParams.find((p) => p.name === 'page');
    expect(page && page.validate(Number(requiredParamText(page)))).toBe(true);
  });
});

import { compileSpec, type LoadedSpec } from '../load';
import type { Exchange } from '../report/types';
import { checkResponses } from './response-checks';

const error = {
  description: 'error',
  content: { 'application/json': { schema: { type: 'object' as const } } },
};
const spec = compileSpec(
  'doc.json',
  {
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    paths: {
      '/comments': {
        post: {
          operationId: 'unsaid',
          responses: { '201': { description: 'made' }, '404': error },
        },
      },
      '/notes': {
        post: {
          operationId: 'says400',
          responses: { '201': { description: 'made' }, '400': error },
        },
      },
    },
  },
  false,
) as LoadedSpec;

const exchange = (operationId: string, status: number): Exchange => ({
  request: { method: 'POST', url: '/x', headers: {} },
  response: { status, headers: { 'content-type': 'application/json' }, body: '{}', json: {} },
  operationId,
  receivedAt: Date.now(),
});
const documentedStatus = (ex: Exchange) =>
  checkResponses(spec, [ex]).find((f) => f.ruleId === 'response.documented-status');

describe('response.documented-status', () => {
  it.each([400, 422])(
    'lets %i refuse bad input where the operation documents no refusal at all',
    (status) => {
      expect(documentedStatus(exchange('unsaid', status))?.outcome).toBe('pass');
    },
  );

  it('holds an operation to the refusal it documents (400 documented: 422 is not)', () => {
    expect(documentedStatus(exchange('says400', 422))?.outcome).toBe('fail');
  });

  it('still fails any other undocumented status', () => {
    expect(documentedStatus(exchange('unsaid', 409))?.outcome).toBe('fail');
  });
});

import { compileSpec, type LoadedSpec } from '../load';
import type { Exchange } from '../report/types';
import { acceptedInvalidProblem, checkResponses, emptyBodyProblem } from './response-checks';

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

describe('the checks the proxy and the runner share', () => {
  const withStatus = (status: number, body: string, headers: Record<string, string> = {}): Exchange => ({
    request: { method: 'POST', url: '/x', headers: {} },
    response: { status, headers: { 'content-type': 'application/json', ...headers }, body },
    operationId: 'unsaid',
    receivedAt: Date.now(),
  });
  const outcome = (ex: Exchange, rule: string) =>
    checkResponses(spec, [ex]).find((f) => f.ruleId === rule)?.outcome;

  it('response.empty-body: a body exactly where the status documents content (a HEAD is not judged)', () => {
    expect(outcome(withStatus(201, ''), 'response.empty-body')).toBe('pass');
    expect(outcome(withStatus(201, '{"a":1}'), 'response.empty-body')).toBe('fail');
    const head = { ...withStatus(201, '{"a":1}'), request: { method: 'HEAD', url: '/x', headers: {} } };
    expect(outcome(head, 'response.empty-body')).toBeUndefined();
    // A status documented with content: its answer carries one.
    expect(outcome(withStatus(404, '{}'), 'response.empty-body')).toBe('pass');
    expect(outcome(withStatus(404, ''), 'response.empty-body')).toBe('fail');
  });

  it('response.empty-body: an error documented without content may carry its error body; a success may not', () => {
    const none = { mediaTypes: [] as string[] };
    expect(emptyBodyProblem(none, { status: 400, body: '{"code":"bad_request"}' })).toBeUndefined();
    expect(emptyBodyProblem(none, { status: 503, body: '{"code":"unavailable"}' })).toBeUndefined();
    expect(emptyBodyProblem(none, { status: 201, body: '{"id":1}' })).toMatch(/documents no body/);
    expect(emptyBodyProblem(none, { status: 302, body: 'moved' })).toMatch(/documents no body/);
    expect(emptyBodyProblem(none, { status: 400, body: '' })).toBeUndefined();
  });

  it('assume.retry-after-seconds: a 429 that sends Retry-After sends whole seconds', () => {
    expect(outcome(withStatus(429, '{}', { 'retry-after': '30' }), 'assume.retry-after-seconds')).toBe(
      'pass',
    );
    expect(outcome(withStatus(429, '{}', { 'retry-after': '1.5' }), 'assume.retry-after-seconds')).toBe(
      'fail',
    );
    expect(outcome(withStatus(429, '{}'), 'assume.retry-after-seconds')).toBeUndefined();
  });

  it('response.accepted-invalid: a 2xx to a request the rules refuse', () => {
    expect(acceptedInvalidProblem(201, ['request.body'])).toMatch(/answered 201 .*request\.body/);
    expect(acceptedInvalidProblem(400, ['request.body'])).toBeUndefined();
    expect(acceptedInvalidProblem(200, [])).toBeUndefined();
  });
});

describe('contract rules judge only what the document says (issue 39)', () => {
  const shaped = {
    description: 'error',
    content: {
      'application/json': {
        schema: {
          type: 'object' as const,
          required: ['code'],
          properties: { code: { type: 'string' as const } },
        },
      },
    },
  };
  const doc = (both: boolean) =>
    compileSpec(
      'doc.json',
      {
        openapi: '3.1.0',
        info: { title: 'T', version: '1' },
        paths: {
          '/a': { get: { operationId: 'a', responses: { '200': { description: 'ok' }, '400': shaped } } },
          '/b': {
            get: {
              operationId: 'b',
              responses: { '200': { description: 'ok' }, ...(both ? { '401': shaped } : {}) },
            },
          },
          '/c': {
            get: {
              operationId: 'c',
              responses: {
                '200': { description: 'ok' },
                '404': { description: 'Not Found' },
                ...(both ? { '401': shaped } : {}),
              },
            },
          },
        },
      },
      false,
    ) as LoadedSpec;
  const notFound = (operationId: string | undefined): Exchange => ({
    request: { method: 'GET', url: '/b', headers: {} },
    response: { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found', json: undefined },
    ...(operationId ? { operationId } : {}),
    receivedAt: Date.now(),
  });
  const outcome = (spec: LoadedSpec, ex: Exchange, rule: string) =>
    checkResponses(spec, [ex]).find((f) => f.ruleId === rule)?.outcome ?? 'none';

  it('does not hold a 404 the document never mentions to the schema of another status', () => {
    expect(outcome(doc(false), notFound('b'), 'errors.error-body')).toBe('none');
  });

  it('holds it to the error shape every operation documents', () => {
    expect(outcome(doc(true), notFound('b'), 'errors.error-body')).toBe('fail');
  });

  it('judges an answer outside the document as JSON only where one error shape holds everywhere', () => {
    expect(outcome(doc(false), notFound(undefined), 'response.json')).toBe('none');
    expect(outcome(doc(true), notFound(undefined), 'response.json')).toBe('fail');
  });

  it('judges the body of an error documented without content as JSON only where one error shape holds', () => {
    expect(outcome(doc(false), notFound('c'), 'response.json')).toBe('none');
    expect(outcome(doc(true), notFound('c'), 'response.json')).toBe('fail');
  });
});

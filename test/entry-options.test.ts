/**
 * Issue 21, point 8: every public entry point checks its options and names the one that is missing or wrong,
 * instead of failing deep inside (`Cannot use 'in' operator to search for 'operations' in undefined`).
 */
import { createMockServer, formatReport, runConformance, toHar } from '../index';
import { createFetchHandler } from '../mock/adapters/fetch';
import { createMswHandlers } from '../mock/adapters/msw';

const KEYS = [{ key: 'entry-options-key-001', plan: 'pro' }];
const DOC = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} };

describe.each([
  ['createFetchHandler', (o: unknown) => createFetchHandler(o as never)],
  ['createMswHandlers', (o: unknown) => createMswHandlers(o as never)],
])('%s', (entry, call) => {
  it.each([
    [undefined, /options must be an object, got undefined/],
    [{ keys: KEYS }, /options\.document is required: the OpenAPI document as an object/],
    [
      { document: 'openapi.yaml', keys: KEYS },
      /options\.document must be the OpenAPI document.*got the string "openapi\.yaml"/,
    ],
    [{ document: DOC, keys: 'free' }, /options\.keys must be an array of \{ key, plan \} entries/],
    [{ document: DOC, clock: Date.now }, /options\.clock must be an object with now\(\)/],
    [{ document: DOC, kyes: KEYS }, /unknown option "kyes" \(known: .*keys/],
  ])('%j', async (options, message) => {
    const failure = call(options).then(
      () => 'resolved',
      (err: unknown) => err,
    );
    const err = await failure;
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toMatch(new RegExp(`^${entry}: `));
    expect((err as Error).message).toMatch(message);
  });
});

it('createMockServer names a setting of the wrong kind or an unknown one', async () => {
  await expect(createMockServer({ port: '4010' as never })).rejects.toThrow(
    /^createMockServer: options\.port must be a finite number, got the string "4010"/,
  );
  await expect(createMockServer({ prot: 0 } as never)).rejects.toThrow(/unknown option "prot"/);
  await expect(createMockServer({ seedFile: 5 as never })).rejects.toThrow(
    /options\.seedFile must be a string or null/,
  );
});

it('runConformance names a missing target and a wrong option', async () => {
  await expect(runConformance({ key: 'k' } as never)).rejects.toThrow(
    /^runConformance: options\.target is required/,
  );
  await expect(
    runConformance({ target: 'http://127.0.0.1:1/v1', key: 'k', seed: '5' } as never),
  ).rejects.toThrow(/options\.seed must be a finite number/);
});

it('a well-formed document without keys still builds a handler', async () => {
  const handler = await createFetchHandler({ document: DOC as never });
  expect(typeof handler).toBe('function');
});

it('a document this entry cannot read as 3.1 is named with its version and the way out', async () => {
  const swagger = { swagger: '2.0', info: { title: 't', version: '1' }, paths: {} };
  await expect(createFetchHandler({ document: swagger as never })).rejects.toThrow(
    /^createFetchHandler: options\.document is Swagger 2\.0; this entry reads OpenAPI 3\.1/,
  );
  const old = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/n': {
        get: {
          operationId: 'getN',
          parameters: [
            { name: 'n', in: 'query', schema: { type: 'integer', minimum: 0, exclusiveMinimum: true } },
          ],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  };
  const failure = await createFetchHandler({ document: old as never }).catch((err: unknown) => err);
  expect(failure).toBeInstanceOf(TypeError);
  expect((failure as Error).message).toMatch(
    /options\.document is OpenAPI 3\.0\.3 and cannot be read as 3\.1 \(.*exclusiveMinimum/,
  );
});

it('formatReport and toHar name a wrong argument', () => {
  expect(() => formatReport(undefined as never, 'json')).toThrow(
    /^formatReport: report must be the report runConformance returned/,
  );
  const report = {
    target: 't',
    startedAt: '',
    durationMs: 0,
    summary: { pass: 0, fail: 0, skip: 0 },
    rules: [],
    coverage: [],
  };
  expect(() => formatReport(report, 'xml' as never)).toThrow(
    /^formatReport: reporter must be one of human, json, junit, markdown, html, coverage, got "xml"/,
  );
  expect(() => toHar(undefined as never, '1.0.0')).toThrow(/^toHar: exchanges must be the array/);
  expect(() => toHar([], undefined as never)).toThrow(/^toHar: version must be a non-empty string/);
});

it('an options value that is undefined as a whole is named once', async () => {
  await expect(runConformance(undefined as never)).rejects.toThrow(
    /options must be an object, got undefined$/,
  );
});

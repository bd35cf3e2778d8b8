import { createAjv } from './ajv';
import {
  compileCallbacks,
  judgeCallback,
  readSource,
  setBodySource,
  sourceOf,
  type CompileSchema,
} from './callbacks';

const ajv = createAjv();
const compile: CompileSchema = (schema) => ajv.compile(schema as object);
const EVENT = { type: 'object', required: ['kind'], properties: { kind: { enum: ['created'] } } };
const specs = compileCallbacks(
  {
    onEvent: {
      '{$request.body#/hooks/url}': {
        post: { requestBody: { required: true, content: { 'application/json': { schema: EVENT } } } },
      },
    },
    onAudit: { '{$request.query.audit}/audits/{$response.body#/id}': { put: {} } },
    fixed: { 'https://example.com/hook': { post: {} } },
  },
  compile,
  'POST /subscriptions',
);
const json = { 'content-type': 'application/json' };

describe('spec/callbacks.ts', () => {
  it.each([
    ['{$request.body#/callbackUrl}', { source: { in: 'body', pointer: '/callbackUrl' } }],
    ['{$request.query.url}/x/{$response.body#/id}', { source: { in: 'query', name: 'url' } }],
    ['{$request.header.X-Hook}', { source: { in: 'header', name: 'X-Hook' } }],
    ['$request.body#/u', { source: { in: 'body', pointer: '/u' } }],
  ])('reads the source a URL key starts with: %s', (key, expected) =>
    expect(sourceOf(key)).toEqual(expected),
  );

  it.each(['https://example.com/{$request.body#/id}', '{$response.body#/url}', '{webhookURL}'])(
    'a key a client cannot point anywhere: %s',
    (key) =>
      expect(sourceOf(key)).toEqual({
        problem: expect.stringMatching(/does not start with a request value/),
      }),
  );

  it('sets and reads a body source through missing objects, leaving the rest', () => {
    const body = setBodySource({ topic: 't' }, '/hooks/url', 'http://127.0.0.1:1/x');
    expect(body).toEqual({ topic: 't', hooks: { url: 'http://127.0.0.1:1/x' } });
    expect(
      readSource({ in: 'body', pointer: '/hooks/url' }, { body, query: new URLSearchParams(), headers: {} }),
    ).toBe('http://127.0.0.1:1/x');
    expect(
      readSource({ in: 'query', name: 'audit' }, { query: new URLSearchParams('audit=a'), headers: {} }),
    ).toBe('a');
  });

  it('judges method, media type and body; prefers callbacks not taken yet', () => {
    const [onEvent, onAudit] = specs;
    expect(specs.map((s) => [s.name, s.method, s.source?.in ?? s.sourceProblem?.slice(0, 10)])).toEqual([
      ['onEvent', 'POST', 'body'],
      ['onAudit', 'PUT', 'query'],
      ['fixed', 'POST', 'its URL ht'],
    ]);
    expect(judgeCallback([onEvent!], { method: 'POST', headers: json, body: '{"kind":"created"}' })).toEqual({
      match: onEvent,
      problems: [],
    });
    expect(judgeCallback([onEvent!], { method: 'PUT', headers: json, body: '{}' }).problems).toEqual([
      {
        rule: 'callbacks.method',
        message: expect.stringMatching(/a PUT arrived where the document has POST/),
      },
    ]);
    const bad = judgeCallback([onEvent!], { method: 'POST', headers: json, body: '{"kind":"gone"}' });
    expect(bad.problems.map((p) => [p.rule, p.message])).toEqual([
      ['callbacks.body-schema', expect.stringMatching(/\/kind must be equal to one of the allowed values/)],
    ]);
    expect(
      judgeCallback([onEvent!], { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })
        .problems[0]?.message,
    ).toMatch(/Content-Type text\/plain/);
    expect(
      judgeCallback([onEvent!], { method: 'POST', headers: json, body: '' }).problems[0]?.message,
    ).toMatch(/requires one/);
    expect(judgeCallback([onAudit!], { method: 'PUT', headers: {}, body: '' })).toEqual({
      match: onAudit,
      problems: [],
    });
    const twin = { ...onEvent! };
    expect(
      judgeCallback(
        [onEvent!, twin],
        { method: 'POST', headers: json, body: '{"kind":"created"}' },
        new Set([onEvent!]),
      ).match,
    ).toBe(twin);
  });
});

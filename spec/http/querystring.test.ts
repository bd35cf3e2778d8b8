import type { QuerystringSpec } from '../compile';
import { createAjv } from '../ajv';
import { readQuerystring, writeQuerystring } from './querystring';
import { querystringProblem } from './request-rules';

function spec(
  kind: QuerystringSpec['kind'],
  schema: Record<string, unknown>,
  required = false,
): QuerystringSpec {
  const mediaType = {
    form: 'application/x-www-form-urlencoded',
    json: 'application/json',
    text: 'text/plain',
  }[kind];
  return { name: 'q', required, mediaType, kind, schema, validate: createAjv().compile(schema) };
}

const form = spec(
  'form',
  {
    type: 'object',
    required: ['from'],
    additionalProperties: false,
    properties: {
      from: { type: 'string' },
      limit: { type: 'integer', maximum: 50 },
      done: { type: 'boolean' },
      tag: { type: 'array', items: { type: 'integer' } },
    },
  },
  true,
);
const json = spec('json', { type: 'object', properties: { ids: { type: 'array', maxItems: 2 } } });
const responses = new Map<string, unknown>([['400', {}]]);

describe('readQuerystring', () => {
  it.each([
    [
      'form pairs typed by their schema',
      form,
      'from=a+b&limit=5&done=true&tag=1&tag=2',
      { from: 'a b', limit: 5, done: true, tag: [1, 2] },
    ],
    ['form names and values percent-decoded', form, 'fr%6Fm=%C3%A9', { from: 'é' }],
    ['JSON, percent-encoded', json, encodeURIComponent('{"ids":[1,"a+b"]}'), { ids: [1, 'a+b'] }],
    ['text, percent-decoded', spec('text', {}), 'a%20b+c', 'a b+c'],
  ])('reads %s', (_label, s, raw, value) => {
    expect(readQuerystring(s, raw)).toEqual({ ok: true, value });
  });

  it.each([
    [form, 'from=%E0%A4%A', /percent-encoding/],
    [json, '%7Bnope', /must be JSON \(application\/json\)/],
  ])('refuses what its media type cannot read', (s, raw, message) => {
    const read = readQuerystring(s, raw);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toMatch(message);
  });

  it('writes what it reads back (form and JSON)', () => {
    const value = { from: 'a b&c', limit: 3, tag: [1, 2] };
    expect(readQuerystring(form, writeQuerystring(form, value))).toEqual({ ok: true, value });
    expect(readQuerystring(json, writeQuerystring(json, { ids: [1] }))).toEqual({
      ok: true,
      value: { ids: [1] },
    });
  });
});

describe('querystringProblem', () => {
  it.each([
    ['valid', 'from=x&limit=50', undefined],
    ['missing and required', '', /querystring parameter q is required/],
    ['out of its schema', 'from=x&limit=51', /querystring parameter q: \/limit must be <= 50/],
    ['a name the schema does not allow', 'from=x&sort=1', /sort is not allowed/],
  ])('%s', (_label, raw, message) => {
    const problem = querystringProblem({ responses, querystring: form }, raw);
    if (message === undefined) expect(problem).toBeUndefined();
    else
      expect(problem).toEqual({
        rule: 'request.parameters',
        status: 400,
        pointer: '/querystring/q',
        message: expect.stringMatching(message),
      });
  });

  it('is none for an operation without one, and none for an optional one left out', () => {
    expect(querystringProblem({ responses }, 'anything')).toBeUndefined();
    expect(querystringProblem({ responses, querystring: json }, undefined)).toBeUndefined();
  });

  it('uses 422 where the operation documents it and no 400', () => {
    const only422 = new Map<string, unknown>([['422', {}]]);
    expect(querystringProblem({ responses: only422, querystring: form }, '')?.status).toBe(422);
  });
});

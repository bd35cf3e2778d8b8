import fs from 'node:fs';
import path from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec } from './compile';
import { loadSpecOrThrow } from './load';
import { inferResources } from './resources';
import { unsatisfiable, unsatisfiableAnswers } from './satisfiable';

describe('unsatisfiable', () => {
  it.each([
    ['contradictory allOf', { allOf: [{ type: 'string' }, { type: 'integer' }] }, /no type in common/],
    ['minLength > maxLength', { type: 'string', minLength: 5, maxLength: 2 }, /minLength 5 > maxLength 2/],
    ['an enum none of whose values fits its type', { type: 'integer', enum: ['a', 'b'] }, /enum values/],
    ['minimum > maximum', { type: 'number', minimum: 3, maximum: 1 }, /between 3 and 1/],
    [
      'a required property that cannot be met, deep down',
      {
        type: 'object',
        required: ['a'],
        properties: {
          a: {
            type: 'object',
            required: ['b'],
            properties: { b: { type: 'string', minLength: 3, maxLength: 1 } },
          },
        },
      },
      /^\/a: \/b: minLength 3 > maxLength 1$/,
    ],
    [
      'a required property not allowed',
      { type: 'object', required: ['x'], additionalProperties: false },
      /x is not allowed/,
    ],
    [
      'no branch of a oneOf',
      { oneOf: [{ type: 'string', minLength: 3, maxLength: 1 }, { not: {} }] },
      /oneOf/,
    ],
    ['minItems with items that cannot be met', { type: 'array', minItems: 1, items: false }, /\/items/],
  ])('%s', (_, schema, reason) => {
    expect(unsatisfiable(schema)).toMatch(reason);
  });

  it.each([
    ['another type escapes the bounds', { type: ['string', 'null'], minLength: 5, maxLength: 2 }],
    ['an optional property that cannot be met is left out', { type: 'object', properties: { a: false } }],
    ['an empty array needs no items', { type: 'array', items: false }],
    [
      'one branch of a oneOf will do',
      { oneOf: [{ type: 'string', minLength: 3, maxLength: 1 }, { type: 'string' }] },
    ],
    [
      'a cycle',
      (() => {
        const node: Record<string, unknown> = { type: 'object', properties: {} };
        (node.properties as Record<string, unknown>).child = node;
        return node;
      })(),
    ],
  ])('satisfiable: %s', (_, schema) => {
    expect(unsatisfiable(schema)).toBeUndefined();
  });

  it('finds nothing in the wild documents and the pet store (no false alarm)', async () => {
    const wild = path.join(__dirname, '..', 'fixtures', 'specs', 'wild');
    const files = [
      ...fs
        .readdirSync(wild)
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => path.join(wild, f)),
      path.join(wild, 'answers', 'public-30.yaml'),
      path.join(__dirname, 'openapi.yaml'),
    ];
    for (const f of files) expect([f, unsatisfiableAnswers(await loadSpecOrThrow(f))]).toEqual([f, []]);
  });

  it('the mock says so at start, one line naming the operation and status', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/codes': {
          get: {
            operationId: 'getCode',
            responses: {
              '200': {
                description: 'a code',
                content: { 'application/json': { schema: { type: 'string', minLength: 4, maxLength: 2 } } },
              },
            },
          },
        },
      },
    } as unknown as OpenAPIV3_1.Document;
    const inferred = inferResources(compileSpec('inline', document, false));
    if (!inferred.ok) throw new Error(inferred.error);
    expect(inferred.model.notes).toEqual([
      'getCode (GET /codes) 200: no answer can meet the documented schema (minLength 4 > maxLength 2); the mock sends the nearest value it can make',
    ]);
  });
});

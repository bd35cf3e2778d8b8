import { diffSchemas } from './schema-diff';

const obj = (
  props: Record<string, unknown>,
  required: string[] = [],
  extra: Record<string, unknown> = {},
) => ({
  type: 'object',
  properties: props,
  required,
  ...extra,
});
const kinds = (a: unknown, b: unknown, dir: 'request' | 'response') =>
  diffSchemas(a, b, dir).map((c) => `${c.breaking ? 'B' : 'c'} ${c.kind} ${c.where}`);

describe('diffSchemas: narrowed breaks a request, widened breaks a response', () => {
  it.each([
    [
      'a newly required property',
      obj({ a: {} }),
      obj({ a: {} }, ['a']),
      'B request.property.required /a',
      'c response.property.required /a',
    ],
    [
      'a property no longer required',
      obj({ a: {} }, ['a']),
      obj({ a: {} }),
      'c request.property.optional /a',
      'B response.property.optional /a',
    ],
    [
      'a property removed',
      obj({ a: {} }),
      obj({}),
      'c request.property.removed /a',
      'B response.property.removed /a',
    ],
    [
      'an enum value removed',
      { enum: ['x', 'y'] },
      { enum: ['x'] },
      'B request.enum.narrowed /',
      'c response.enum.narrowed /',
    ],
    [
      'an enum value added',
      { enum: ['x'] },
      { enum: ['x', 'y'] },
      'c request.enum.widened /',
      'B response.enum.widened /',
    ],
    [
      'a maximum lowered',
      { maximum: 10 },
      { maximum: 5 },
      'B request.bound.narrowed /',
      'c response.bound.narrowed /',
    ],
    ['a minLength dropped', { minLength: 2 }, {}, 'c request.bound.widened /', 'B response.bound.widened /'],
    [
      'a type widened',
      { type: 'integer' },
      { type: 'number' },
      'c request.type.widened /',
      'B response.type.widened /',
    ],
    [
      'a type narrowed',
      { type: ['string', 'null'] },
      { type: 'string' },
      'B request.type.narrowed /',
      'c response.type.narrowed /',
    ],
    [
      'a format added',
      { type: 'string' },
      { type: 'string', format: 'uuid' },
      'B request.format.narrowed /',
      'c response.format.narrowed /',
    ],
  ])('%s', (_name, a, b, request, response) => {
    expect(kinds(a, b, 'request')).toEqual([request]);
    expect(kinds(a, b, 'response')).toEqual([response]);
  });

  it('follows properties and items, and stops at a cycle', () => {
    const a: Record<string, unknown> = obj({
      tags: { type: 'array', items: { type: 'string', maxLength: 9 } },
    });
    const b: Record<string, unknown> = obj({
      tags: { type: 'array', items: { type: 'string', maxLength: 5 } },
    });
    (a.properties as Record<string, unknown>).self = a;
    (b.properties as Record<string, unknown>).self = b;
    expect(kinds(a, b, 'request')).toEqual(['B request.bound.narrowed /tags/items']);
  });

  it('an optional property added is compatible, except in a closed response object', () => {
    expect(kinds(obj({}), obj({ b: {} }), 'request')).toEqual(['c request.property.added /b']);
    const closed = { additionalProperties: false };
    expect(kinds(obj({}, [], closed), obj({ b: {} }, [], closed), 'response')).toEqual([
      'B response.property.added /b',
    ]);
  });

  it('identical schemas have no change', () => {
    expect(
      diffSchemas(obj({ a: { enum: [1] } }, ['a']), obj({ a: { enum: [1] } }, ['a']), 'request'),
    ).toEqual([]);
  });
});

import { createAjv } from './ajv';
import { sampleOf } from './sample';
import { validAnswer } from './conform';
import type { Schema } from './schema-shape';

const ajv = createAjv();
const obj = (properties: object, extra: object = {}) => ({ type: 'object', properties, ...extra });

describe('a generated value matches exactly one branch of a oneOf', () => {
  it.each([
    [
      'open objects that share nothing',
      { oneOf: [obj({ a: { type: 'string' } }), obj({ b: { type: 'string' } })] },
    ],
    [
      'branches that differ only in optional properties',
      {
        oneOf: [
          obj({ kind: { type: 'string' }, meow: { type: 'string' } }, { required: ['kind'] }),
          obj({ kind: { type: 'string' }, bark: { type: 'string' } }, { required: ['kind'] }),
        ],
      },
    ],
    ['number and integer', { oneOf: [{ type: 'number' }, { type: 'integer' }] }],
    ['a date-time and any string', { oneOf: [{ type: 'string', format: 'date-time' }, { type: 'string' }] }],
    [
      'a discriminator whose branches carry the property as an enum',
      {
        discriminator: { propertyName: 'type' },
        oneOf: [
          obj(
            { type: { type: 'string', enum: ['card'] }, last4: { type: 'string' } },
            { required: ['type'] },
          ),
          obj({ type: { type: 'string', enum: ['card', 'bank'] } }, { required: ['type'] }),
        ],
      },
    ],
    [
      'an item of an array',
      {
        type: 'array',
        minItems: 1,
        items: { oneOf: [obj({ id: { type: 'integer' } }), obj({ name: { type: 'string' } })] },
      },
    ],
    [
      'branches that differ only in what they require',
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' } },
        oneOf: [{ required: ['a'] }, { required: ['b'] }],
      },
    ],
  ])('%s', (_name, schema) => {
    const value = sampleOf(schema as Schema);
    expect({ value, valid: ajv.validate(schema, value) }).toEqual({ value, valid: true });
  });
});

describe('required properties are present', () => {
  it('what `then` requires when `if` holds (OpenAPI 3.1)', () => {
    const schema = {
      type: 'object',
      required: ['kind'],
      properties: { kind: { enum: ['file'] } },
      if: { properties: { kind: { const: 'file' } } },
      then: { required: ['size'], properties: { size: { type: 'integer' } } },
    };
    for (const requiredOnly of [false, true]) {
      const value = sampleOf(schema as Schema, { requiredOnly });
      expect({ value, valid: ajv.validate(schema, value) }).toEqual({ value, valid: true });
    }
  });
});

describe('a value echoed from a request that the answer refuses is replaced', () => {
  it('a status outside the response enum becomes one of its values', () => {
    const schema = obj(
      { id: { type: 'string' }, status: { type: 'string', enum: ['active', 'archived'] } },
      { required: ['id', 'status'] },
    );
    const out = validAnswer({ id: 'w1', status: 'pending' }, schema as Schema, ajv.compile(schema));
    expect(out).toEqual({ id: 'w1', status: 'active' });
  });
});

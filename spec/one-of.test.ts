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

/**
 * Vonage's report records (issue 40): branches that share a base (`allOf`) and differ in a few open fields, one
 * branch contained in another (any `status` string), so no single change makes a value match one branch.
 */
describe('records whose branches overlap (a base and a few open fields each)', () => {
  const base = obj({ account_id: { type: 'string' }, product: { type: 'string', enum: ['SMS', 'VOICE'] } });
  const record = (props: object, extra: object = {}) => ({ allOf: [base, obj(props, extra)] });
  const schema = {
    oneOf: [
      record(
        {
          direction: { type: 'string', enum: ['inbound', 'outbound'] },
          status: { type: 'string', enum: ['delivered', 'failed'] },
          records: { type: 'array', items: obj({ to: { type: 'string' }, price: { type: 'number' } }) },
        },
        { required: ['product', 'direction'] },
      ),
      record({
        status: { type: 'string', enum: ['answered', 'failed'] },
        conversation_id: { type: 'string' },
      }),
      record({
        status: { type: 'string' },
        records: { type: 'array', items: obj({ to: { type: 'string' }, call_id: { type: 'string' } }) },
      }),
      record({ network: { type: 'string' }, to: { type: 'string' } }),
    ],
  };
  it('a generated value matches one branch', () => {
    const value = sampleOf(schema as Schema);
    expect({ value, valid: ajv.validate(schema, value) }).toEqual({ value, valid: true });
  });
  it('an echoed record keeps its values where they tell the branch, and matches one branch', () => {
    const sent = {
      account_id: 'a1',
      product: 'SMS',
      direction: 'outbound',
      status: 'delivered',
      network: 'n1',
      records: [{ to: '44', price: 1 }],
    };
    const out = validAnswer(sent, schema as Schema, ajv.compile(schema)) as Record<string, unknown>;
    expect({ out, valid: ajv.validate(schema, out) }).toEqual({ out, valid: true });
    expect(out.account_id).toBe('a1');
  });
});

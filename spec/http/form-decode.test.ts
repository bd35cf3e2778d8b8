import type { Schema } from '../schema-shape';
import { decodeForm, type FormEncoding } from './form-decode';

const CUSTOMER: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    email: { type: 'string' },
    balance: { type: 'integer' },
    livemode: { type: 'boolean' },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    expand: { type: 'array', items: { type: 'string' } },
    items: {
      type: 'array',
      items: { type: 'object', properties: { price: { type: 'string' }, quantity: { type: 'integer' } } },
    },
    tags: { type: 'array', items: { type: 'string' } },
    address: {
      allOf: [{ type: 'object', properties: { line1: { type: 'string' }, zip: { type: 'number' } } }],
    },
    Tags: {
      type: 'object',
      properties: {
        member: { type: 'array', items: { type: 'object', properties: { Key: { type: 'string' } } } },
      },
    },
  },
};

describe('decodeForm', () => {
  it.each<[string, string, Record<string, FormEncoding>, unknown]>([
    [
      'flat fields typed by the schema',
      'email=a%40b.c&balance=5&livemode=true',
      {},
      { email: 'a@b.c', balance: 5, livemode: true },
    ],
    ['+ is a space', 'email=a+b', {}, { email: 'a b' }],
    [
      'bracketed nesting (deepObject)',
      'metadata[plan]=gold&metadata[tier]=1',
      {},
      { metadata: { plan: 'gold', tier: '1' } },
    ],
    [
      'indexed objects',
      'items[0][price]=p_1&items[1][price]=p_2&items[1][quantity]=3',
      {},
      { items: [{ price: 'p_1' }, { price: 'p_2', quantity: 3 }] },
    ],
    [
      'sparse indices kept in order',
      'items[5][price]=b&items[2][price]=a',
      {},
      { items: [{ price: 'a' }, { price: 'b' }] },
    ],
    ['[] appends', 'expand[]=customer&expand[]=invoice', {}, { expand: ['customer', 'invoice'] }],
    ['a repeated name is a list', 'tags=a&tags=b', {}, { tags: ['a', 'b'] }],
    ['an array of one', 'tags=a', {}, { tags: ['a'] }],
    ['a repeated scalar keeps the last', 'email=a&email=b', {}, { email: 'b' }],
    ['through allOf', 'address[line1]=x&address[zip]=12', {}, { address: { line1: 'x', zip: 12 } }],
    ['deeper nesting', 'metadata[a][b][c]=d', {}, { metadata: { a: { b: { c: 'd' } } } }],
    [
      'form, explode: false',
      'tags=a,b,c',
      { tags: { style: 'form', explode: false } },
      { tags: ['a', 'b', 'c'] },
    ],
    ['pipeDelimited', 'tags=a|b', { tags: { style: 'pipeDelimited' } }, { tags: ['a', 'b'] }],
    [
      'a JSON-encoded property',
      'metadata=%7B%22plan%22%3A%22gold%22%7D',
      { metadata: { contentType: 'application/json' } },
      { metadata: { plan: 'gold' } },
    ],
    [
      'AWS query style dotted names',
      'Tags.member.1.Key=k&Tags.member.2.Key=l',
      {},
      { Tags: { member: [{ Key: 'k' }, { Key: 'l' }] } },
    ],
  ])('%s', (_, text, encoding, value) => {
    expect(decodeForm(text, CUSTOMER, encoding)).toEqual({ ok: true, value });
  });

  it('keeps __proto__ and constructor as data, never the prototype', () => {
    const read = decodeForm('__proto__[admin]=1&constructor[prototype][x]=1&metadata[__proto__]=y', CUSTOMER);
    expect(read.ok).toBe(true);
    const value = (read as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor', 'metadata']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(Object.getOwnPropertyNames(value.metadata)).toEqual(['__proto__']);
  });

  it.each([
    ['too deep', 'metadata' + '[a]'.repeat(20) + '=1', /deeper than 10/],
    ['too many fields', Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&'), /more than 1000 fields/],
    ['too large', `email=${'a'.repeat(1_048_577)}`, /larger than/],
    ['broken percent-encoding', 'email=%E0%A4%A', /percent-encoding/],
  ])('refuses a body %s', (_, text, message) => {
    expect(decodeForm(text, CUSTOMER)).toEqual({ ok: false, message: expect.stringMatching(message) });
  });
});

/** The request and response views of schemas (issue 21): readOnly and writeOnly as OpenAPI means them. */
import { createAjv } from './ajv';
import { formatAjvErrors } from './compile';
import { registerSchemaNames, requestView, responseView, withoutWriteOnly } from './schema-views';

type Json = Record<string, unknown>;
const ajv = createAjv();
const valid = (schema: unknown, data: unknown): string | true => {
  const v = ajv.compile(schema as object);
  return v(data) ? true : formatAjvErrors(v.errors);
};

const book = (): Json => ({
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' } },
});
const user = (): Json => ({
  type: 'object',
  required: ['id', 'name', 'password'],
  properties: {
    id: { type: 'string', readOnly: true },
    name: { type: 'string' },
    password: { type: 'string', writeOnly: true },
  },
});

describe('requestView: readOnly properties are not required of a client', () => {
  it.each([
    ['a flat object', book(), { title: 'Dune' }],
    ['through allOf, required in another part', { allOf: [book(), { required: ['id'] }] }, { title: 'Dune' }],
    ['inside an array', { type: 'array', items: book() }, [{ title: 'Dune' }]],
    [
      'inside a nested object',
      { type: 'object', required: ['b'], properties: { b: book() } },
      { b: { title: 'Dune' } },
    ],
    ['in each branch of oneOf', { oneOf: [book(), { type: 'string' }] }, { title: 'Dune' }],
  ])('%s', (_name, schema, data) => {
    expect(valid(schema, data)).not.toBe(true);
    expect(valid(requestView(schema), data)).toBe(true);
  });

  it('still requires what is not readOnly', () => {
    expect(valid(requestView(book()), {})).toBe('/title is required');
  });

  it('requires a writeOnly property in a request', () => {
    expect(valid(requestView(user()), { name: 'a' })).toBe('/password is required');
  });
});

describe('responseView: writeOnly properties are not required and never present', () => {
  it('drops the requirement and refuses the value', () => {
    const view = responseView(user());
    expect(valid(view, { id: 'u1', name: 'a' })).toBe(true);
    expect(valid(view, { id: 'u1', name: 'a', password: 'secret-1' })).toBe(
      '/password is writeOnly and must not be in a response',
    );
    expect(valid(view, { name: 'a' })).toBe('/id is required');
  });

  it('follows $ref targets shared by many schemas and nested arrays', () => {
    const shared = user();
    const list = { type: 'object', properties: { data: { type: 'array', items: shared } } };
    expect(valid(responseView(list), { data: [{ id: 'u', name: 'n', password: 'p' }] })).toMatch(
      /^\/data\/0\/password is writeOnly/,
    );
    expect(responseView(list).properties.data.items).toBe(responseView(shared));
  });
});

describe('identity and cycles', () => {
  it('is the schema itself when nothing changes, the same view every time otherwise', () => {
    const plain = { type: 'object', properties: { a: { type: 'string' } } };
    expect(requestView(plain)).toBe(plain);
    expect(responseView(plain)).toBe(plain);
    const b = book();
    expect(requestView(b)).toBe(requestView(b));
    expect(requestView(b)).not.toBe(b);
    expect(b.required).toEqual(['id', 'title']); // the document is never changed
  });

  it('keeps a recursive schema recursive, without looping', () => {
    const node: Json = user();
    (node.properties as Json).friends = { type: 'array', items: node };
    const view = responseView(node) as Json & { properties: { friends: { items: unknown } } };
    expect(view.properties.friends.items).toBe(view);
    expect(view.required).toEqual(['id', 'name']);
    const req = requestView(node) as Json & { properties: { friends: { items: unknown } } };
    expect(req.properties.friends.items).toBe(req);
  });
});

describe('withoutWriteOnly: a stored writeOnly value is not sent back', () => {
  it('strips at every depth and leaves the rest alone', () => {
    const schema = {
      type: 'object',
      properties: { owner: user(), members: { type: 'array', items: user() } },
    };
    const view = responseView(schema);
    const value = {
      owner: { id: '1', password: 'p' },
      members: [{ id: '2', name: 'n', password: 'q' }],
      x: 1,
    };
    expect(withoutWriteOnly(view, value)).toEqual({
      owner: { id: '1' },
      members: [{ id: '2', name: 'n' }],
      x: 1,
    });
    expect(value.owner.password).toBe('p'); // a copy, not the stored record
  });

  it('returns the value itself when the schema has no writeOnly property', () => {
    const value = { id: 1, title: 't' };
    expect(withoutWriteOnly(responseView(book()), value)).toBe(value);
  });
});

describe('a discriminator selects one branch of oneOf, as OpenAPI means it', () => {
  const base = () => ({
    type: 'object',
    required: ['petType', 'name'],
    properties: { petType: { type: 'string' }, name: { type: 'string' } },
  });
  const Cat = { allOf: [base(), { properties: { indoor: { type: 'boolean' } } }] };
  const Dog = { allOf: [base(), { properties: { barks: { type: 'boolean' } } }] };
  registerSchemaNames({ Cat, Dog });

  it.each([
    ['by the mapping', { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' }, 'cat'],
    ['by the component name when there is no mapping', undefined, 'Cat'],
  ])('%s', (_name, mapping, value) => {
    const Pet = {
      oneOf: [Cat, Dog],
      discriminator: { propertyName: 'petType', ...(mapping ? { mapping } : {}) },
    };
    const pet = { petType: value, name: 'Tom' };
    expect(valid(Pet, pet)).toMatch(/must match exactly one schema in oneOf/); // plain JSON Schema: both match
    expect(valid(requestView(Pet), pet)).toBe(true);
    expect(valid(responseView(Pet), pet)).toBe(true);
    expect(valid(requestView(Pet), { petType: 'bird', name: 'Tweety' })).not.toBe(true);
  });
});

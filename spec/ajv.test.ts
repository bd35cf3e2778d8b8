import { admitDocumentVocabulary, createAjv, takeStrictWarnings } from './ajv';

const withSchemas = (schemas: Record<string, unknown>) => ({ components: { schemas } });

describe('admitDocumentVocabulary', () => {
  it('lets vendor keywords anywhere in a schema compile, silently', () => {
    const ajv = createAjv();
    const schema = {
      type: 'object',
      'x-my-model': true,
      'x-codegen': { package: 'a.b' },
      properties: { tag: { type: 'string', 'x-searchable': true } },
    };
    // Not admitted, a vendor keyword is only noted by strict mode (issue 21: never a refusal).
    takeStrictWarnings();
    expect(() => ajv.compile(structuredClone(schema))).not.toThrow();
    expect(takeStrictWarnings()).toEqual([expect.stringMatching(/unknown keyword: "x-my-model"/)]);
    expect(admitDocumentVocabulary(ajv, withSchemas({ Pet: schema }))).toEqual([]);
    const validate = ajv.compile(schema);
    expect(validate({ tag: 'a' })).toBe(true);
    expect(validate({ tag: 1 })).toBe(false);
  });

  it('accepts OpenAPI annotation keywords without a warning', () => {
    const ajv = createAjv();
    const schema = {
      type: 'object',
      discriminator: { propertyName: 'kind' },
      xml: { name: 'pet' },
      externalDocs: { url: 'https://example.com' },
      example: { kind: 'dog' },
      deprecated: true,
      properties: {
        id: { type: 'integer', readOnly: true },
        secret: { type: 'string', writeOnly: true },
        kind: { type: 'string' },
      },
    };
    expect(admitDocumentVocabulary(ajv, withSchemas({ Pet: schema }))).toEqual([]);
    expect(ajv.compile(schema)({ kind: 'dog' })).toBe(true);
  });

  it('accepts an unknown format without checking it, with one warning naming where it is used', () => {
    const ajv = createAjv();
    const country = { type: 'string', format: 'iso-country-code' };
    const document = withSchemas({
      Address: { properties: { country } },
      Other: { properties: { c: country } },
    });
    expect(admitDocumentVocabulary(ajv, document)).toEqual([
      'unknown format "iso-country-code" (at #/components/schemas/Address/properties/country) is accepted without checking',
    ]);
    expect(ajv.compile(country)('anything')).toBe(true);
    expect(ajv.compile(country)(7)).toBe(false);
  });

  it.each([
    'int32',
    'int64',
    'float',
    'double',
    'date-time',
    'date',
    'email',
    'uuid',
    'uri',
    'byte',
    'password',
  ])('knows the format %s', (format) => {
    expect(admitDocumentVocabulary(createAjv(), withSchemas({ S: { type: 'string', format } }))).toEqual([]);
  });

  it('ignores an unknown keyword with a warning that suggests the keyword meant', () => {
    const ajv = createAjv();
    const schema = { type: 'string', minLenght: 3 };
    expect(admitDocumentVocabulary(ajv, withSchemas({ Name: schema }))).toEqual([
      'unknown keyword "minLenght" (at #/components/schemas/Name/minLenght) is ignored; did you mean "minLength"?',
    ]);
    expect(ajv.compile(schema)('a')).toBe(true);
  });

  it('warns again when the same instance meets the document again (a reload)', () => {
    const ajv = createAjv();
    const document = withSchemas({ S: { type: 'string', format: 'iso-country-code', colour: 'red' } });
    const first = admitDocumentVocabulary(ajv, document);
    expect(first).toHaveLength(2);
    expect(admitDocumentVocabulary(ajv, document)).toEqual(first);
  });

  it('drops a vendor keyword ajv cannot name, so that compiling does not fail on it', () => {
    const ajv = createAjv();
    const schema: Record<string, unknown> = { type: 'string', 'x-odd.name': 1 };
    expect(admitDocumentVocabulary(ajv, withSchemas({ S: schema }))).toEqual([]);
    expect(schema).toEqual({ type: 'string' });
    expect(ajv.compile(schema)('a')).toBe(true);
  });
});

describe('createAjv patterns', () => {
  it('matches a pattern written with Ruby/PCRE anchors as its author meant', () => {
    const validate = createAjv().compile({ type: 'string', pattern: '\\A[a-z0-9.-]+\\.[a-z]{2,16}\\z' });
    expect(validate('kit.example.org')).toBe(true);
    expect(validate('Not valid!')).toBe(false);
  });
});

import { place, schemeKind, secretNames } from '../send/credentials';
import { maskHeaderValues, maskUrlSecrets } from '../../spec/mask';
import { bodyCases, boundCases } from '../generate/body-cases';
import { seededRandom } from '../send/check-context';

describe('credentials as the security scheme says', () => {
  it.each([
    [
      { type: 'http', scheme: 'bearer' },
      { headers: { Authorization: 'Bearer k1' }, query: {} },
    ],
    [
      { type: 'http', scheme: 'basic' },
      { headers: { Authorization: `Basic ${Buffer.from('k1:').toString('base64')}` }, query: {} },
    ],
    [
      { type: 'oauth2', flows: {} },
      { headers: { Authorization: 'Bearer k1' }, query: {} },
    ],
    [
      { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      { headers: { 'X-API-Key': 'k1' }, query: {} },
    ],
    [
      { type: 'apiKey', in: 'query', name: 'api_key' },
      { headers: {}, query: { api_key: 'k1' } },
    ],
    [
      { type: 'apiKey', in: 'cookie', name: 'session' },
      { headers: { Cookie: 'session=k1' }, query: {} },
    ],
  ] as const)('%j', (scheme, placed) => {
    expect(place(scheme as never, 'k1')).toEqual(placed);
    expect(schemeKind(scheme as never)).not.toBe('other');
  });

  it('masks every place a secret goes', () => {
    const names = secretNames({
      q: { type: 'apiKey', in: 'query', name: 'api_key' },
      h: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    });
    expect(maskUrlSecrets('http://h/v1/pets?api_key=secret-key&x=1', names.query, [])).toBe(
      'http://h/v1/pets?api_key=secr…(masked)&x=1',
    );
    expect(
      maskHeaderValues(
        {
          'X-API-Key': 'secret-key',
          Cookie: 'a=secret-key; b=2',
          Authorization: 'Basic abcdefgh',
          Echo: 'has secret-key',
        },
        names.headers,
        ['secret-key'],
      ),
    ).toEqual({
      'X-API-Key': 'secr…(masked)',
      Cookie: 'a=secr…(masked); b=2…(masked)',
      Authorization: 'Basic abcd…(masked)',
      Echo: 'has secr…(masked)',
    });
  });
});

describe('body cases', () => {
  it('name one case per required property, type and bound, each breaking the schema', () => {
    const schema = {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 5 },
        n: { type: 'integer', minimum: 1, maximum: 3 },
        s: { type: 'string', enum: ['a', 'b'] },
        t: { type: ['string', 'null'] },
      },
    } as const;
    const cases = bodyCases(schema as never, seededRandom(1), 'p');
    expect(cases.map((c) => c.name)).toEqual([
      'valid',
      'valid',
      'malformed-json',
      'not-an-object',
      'missing-name',
      'type-name',
      'min-length-name',
      'max-length-name',
      'type-n',
      'minimum-n',
      'maximum-n',
      'type-s',
      'enum-s',
      'type-t',
      'unknown-property',
    ]);
    expect(cases.find((c) => c.name === 'unknown-property')?.kind).toBe('contract');
    expect(cases.find((c) => c.name === 'type-t')?.body).not.toMatchObject({ t: null });
    expect(boundCases({ type: 'number', exclusiveMinimum: 0 })).toEqual([
      { name: 'minimum', label: 'below minimum 0.5', value: 0 },
    ]);
  });
});

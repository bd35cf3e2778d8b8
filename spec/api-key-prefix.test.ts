import type { OpenAPIV3_1 } from 'openapi-types';
import { apiKeyCandidates, apiKeyPrefix } from './api-key-prefix';
import { credentialReaders } from '../mock/core/credentials';
import { place } from '../conformance/send/credentials';

const scheme = (description: string, name = 'Authorization'): OpenAPIV3_1.SecuritySchemeObject => ({
  type: 'apiKey',
  in: 'header',
  name,
  description,
});

describe('an apiKey scheme in Authorization with a prefix', () => {
  it.each([
    ['Send `Authorization: Token <key>`.', 'Token'],
    ['Use the header as "Bearer {token}"', 'Bearer'],
    ['basic abc123 works too', 'basic'],
    ['Your API key.', undefined],
    ['Send your key as `Authorization: Token <key>`.', 'Token'],
    ['', undefined],
  ])('%j shows the prefix %s', (description, prefix) => {
    expect(apiKeyPrefix(scheme(description))).toBe(prefix);
  });

  it('only on the Authorization header', () => {
    expect(apiKeyPrefix(scheme('Token <key>', 'X-Api-Key'))).toBeUndefined();
  });

  it.each([
    ['Token abc', ['abc', 'Token abc']],
    ['abc', ['abc']],
    ['  ', []],
  ])('%j offers %j', (value, keys) => {
    expect(apiKeyCandidates(value)).toEqual(keys);
  });

  it('the mock reads both forms, the runner sends the documented one', () => {
    const s = scheme('Authorization: Token <key>');
    const [reader] = credentialReaders({ token: s });
    const q = () => ({});
    expect(reader?.read({ authorization: 'Token k1' }, q)).toEqual({ keys: ['k1', 'Token k1'] });
    expect(reader?.read({ authorization: 'k1' }, q)).toEqual({ keys: ['k1'] });
    expect(reader?.read({ 'x-other': 'k1' }, q)).toEqual({ problem: 'missing header Authorization' });
    expect(place(s, 'k1').headers).toEqual({ Authorization: 'Token k1' });
    expect(place(scheme('Your key.'), 'k1').headers).toEqual({ Authorization: 'k1' });
  });
});

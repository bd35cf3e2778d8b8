import type { OpenAPIV3_1 } from 'openapi-types';
import { outgoingAuth, withQuery } from './outgoing-credentials';

const schemes: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {
  bearer: { type: 'http', scheme: 'bearer' },
  basic: { type: 'http', scheme: 'basic' },
  header: { type: 'apiKey', in: 'header', name: 'X-Hook-Key' },
  query: { type: 'apiKey', in: 'query', name: 'token' },
  cookie: { type: 'apiKey', in: 'cookie', name: 'sid' },
  oauth: { type: 'oauth2', flows: {} },
};

describe('credentials for callbacks and webhooks', () => {
  it.each([
    ['bearer', 'tok-123456', { Authorization: 'Bearer tok-123456' }, {}, ['authorization']],
    ['oauth', { token: 'tok-123456' }, { Authorization: 'Bearer tok-123456' }, {}, ['authorization']],
    ['header', { value: 'key-123456' }, { 'X-Hook-Key': 'key-123456' }, {}, ['x-hook-key']],
    ['query', 'key-123456', {}, { token: 'key-123456' }, []],
    ['cookie', 'key-123456', { Cookie: 'sid=key-123456' }, {}, ['cookie']],
    [
      'basic',
      { username: 'hook', password: 'pw-123456' },
      { Authorization: `Basic ${btoa('hook:pw-123456')}` },
      {},
      ['authorization'],
    ],
  ] as const)(
    '%s: the credential goes where the scheme says, marked secret',
    (name, given, headers, query, secret) => {
      const out = outgoingAuth([{ [name]: [] }], schemes, { [name]: given });
      expect(out.headers).toEqual(headers);
      expect(out.query).toEqual(query);
      expect(out.secretHeaders).toEqual(secret);
      expect(out.secretValues.length).toBeGreaterThan(0);
      expect(out.note).toBeUndefined();
    },
  );

  it('takes the first alternative the settings meet whole; none met: nothing sent, and a note', () => {
    const security: OpenAPIV3_1.SecurityRequirementObject[] = [{ bearer: [], header: [] }, { query: [] }];
    expect(outgoingAuth(security, schemes, { bearer: 'tok-123456', query: 'q-123456' }).query).toEqual({
      token: 'q-123456',
    });
    const none = outgoingAuth(security, schemes, {});
    expect(none.headers).toEqual({});
    expect(none.note).toMatch(/bearer \+ header or query/);
    expect(outgoingAuth([{}], schemes, {}).note).toBeUndefined();
    expect(outgoingAuth(undefined, schemes, { bearer: 'x' }).headers).toEqual({});
  });

  it('adds query credentials to an absolute URL', () => {
    expect(withQuery('http://127.0.0.1:9/h?a=1', { token: 'k' })).toBe('http://127.0.0.1:9/h?a=1&token=k');
    expect(withQuery('not a url', { token: 'k' })).toBe('not a url');
  });
});

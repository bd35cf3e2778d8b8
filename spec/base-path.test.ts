import { basePathOf, matchBasePath } from './base-path';

type Server = { url: string; variables?: Record<string, { default?: unknown }> };
const doc = (...servers: Server[]) => ({ servers });

describe('basePathOf', () => {
  it.each<[string, Server[], string]>([
    ['an absolute URL', [{ url: 'https://api.example.com/v1' }], '/v1'],
    ['a trailing slash', [{ url: 'https://api.example.com/v1/' }], '/v1'],
    ['a host only', [{ url: 'https://api.example.com' }], ''],
    ['a root URL', [{ url: 'https://api.example.com/' }], ''],
    ['a relative URL', [{ url: '/api/v3' }], '/api/v3'],
    ['a relative URL without a slash', [{ url: 'api/v3' }], '/api/v3'],
    ['the document location', [{ url: '.' }], ''],
    ['a scheme-relative URL', [{ url: '//api.example.com/v2' }], '/v2'],
    ['a port', [{ url: 'http://127.0.0.1:4010/v1' }], '/v1'],
    ['a query and a fragment', [{ url: 'https://x.example/v1?a=1#top' }], '/v1'],
    [
      'a templated host',
      [{ url: 'https://{host}/v1', variables: { host: { default: 'api.example.com' } } }],
      '/v1',
    ],
    [
      'templated scheme and version',
      [
        {
          url: '{scheme}://x.example/{version}',
          variables: { scheme: { default: 'https' }, version: { default: 'v2' } },
        },
      ],
      '/v2',
    ],
    [
      'a templated path segment inside a word',
      [{ url: 'https://x.example/api-{v}/items', variables: { v: { default: 3 } } }],
      '/api-3/items',
    ],
    ['a variable without a default', [{ url: '{scheme}://x.example/v1' }], '/v1'],
    ['a plus kept as written', [{ url: 'https://x.example/rest/Some+API/1.0.0' }], '/rest/Some+API/1.0.0'],
    ['percent-encoding kept as written', [{ url: '/rest/Some%20API/1.0.0' }], '/rest/Some%20API/1.0.0'],
    ['the first server only', [{ url: '/first' }, { url: '/second' }], '/first'],
    ['no servers', [], ''],
  ])('%s', (_, servers, expected) => {
    expect(basePathOf(doc(...servers))).toBe(expected);
  });

  it('is "" for a document without a servers entry', () => {
    expect(basePathOf({})).toBe('');
  });

  it.each([
    ['/v2', '/v2'],
    ['v2/', '/v2'],
    ['/', ''],
    ['', ''],
  ])('an override %j wins over the servers, as %j', (override, expected) => {
    expect(basePathOf(doc({ url: 'https://x.example/v1' }), override)).toBe(expected);
  });
});

describe('matchBasePath', () => {
  it.each<[string, string, string | undefined]>([
    ['/v1/pets', '/v1', '/pets'],
    ['/v1', '/v1', ''],
    ['/v1/', '/v1', '/'],
    ['/v10/pets', '/v1', undefined],
    ['/pets', '/v1', undefined],
    ['/pets', '', '/pets'],
    ['/rest/Some+API/1.0.0/x', '/rest/Some+API/1.0.0', '/x'],
    ['/rest/Some%20API/1.0.0/x', '/rest/Some+API/1.0.0', '/x'],
    ['/rest/Some%2BAPI/1.0.0/x', '/rest/Some+API/1.0.0', '/x'],
    ['/rest/Some+API/1.0.0/x', '/rest/Some%20API/1.0.0', '/x'],
    ['/rest/Other+API/1.0.0/x', '/rest/Some+API/1.0.0', undefined],
    ['/rest/Some%ZZAPI/x', '/rest/Some+API', undefined],
  ])('%s under %j leaves %j', (pathname, basePath, rest) => {
    expect(matchBasePath(pathname, basePath)).toBe(rest);
  });
});

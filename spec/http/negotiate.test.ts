import { acceptProblem, essenceOf, negotiate, parseAccept } from './negotiate';

const JSON_ONLY = ['application/json'];
const JSON_AND_XML = ['application/json', 'application/xml'];

describe('negotiate', () => {
  it.each<[string, readonly string[], string | undefined, string | undefined]>([
    ['no Accept: the first documented type', JSON_AND_XML, undefined, 'application/json'],
    ['an empty Accept', JSON_ONLY, '', 'application/json'],
    ['a vendor +json type (RFC 6839)', JSON_ONLY, 'application/vnd.github.v3+json', 'application/json'],
    [
      'a vendor +json type with parameters',
      JSON_ONLY,
      'application/vnd.heroku+json; version=3',
      'application/json',
    ],
    ['a type with a charset', JSON_ONLY, 'application/json; charset=utf-8', 'application/json'],
    ['case does not matter', JSON_ONLY, 'Application/JSON', 'application/json'],
    ['*/*', JSON_ONLY, '*/*', 'application/json'],
    ['application/*', JSON_ONLY, 'application/*', 'application/json'],
    ['text/* excludes JSON', JSON_ONLY, 'text/*', undefined],
    ['q-values pick the higher', JSON_AND_XML, 'application/json;q=0.2, application/xml', 'application/xml'],
    ['q=0 excludes', JSON_ONLY, 'application/json;q=0', undefined],
    ['a more specific q=0 beats */*', JSON_ONLY, '*/*, application/json;q=0', undefined],
    ['q=0 on one, another allowed', JSON_AND_XML, 'application/json;q=0, */*;q=0.1', 'application/xml'],
    ['+xml maps to documented XML', JSON_AND_XML, 'application/vnd.acme+xml', 'application/xml'],
    ['text/xml is XML too', ['text/xml'], 'application/xml', 'text/xml'],
    ['a JSON request of an XML-only answer', ['text/xml'], 'application/json', undefined],
    [
      'a documented +json answers application/json',
      ['application/hal+json'],
      'application/json',
      'application/hal+json',
    ],
    ['a documented range', ['image/*'], 'image/png', 'image/*'],
    [
      'a list of others ending in */*',
      JSON_ONLY,
      'text/html, application/xhtml+xml, */*;q=0.8',
      'application/json',
    ],
    ['nothing readable: allowed', JSON_ONLY, 'garbage', 'application/json'],
    ['an unrelated type only', JSON_ONLY, 'text/html', undefined],
  ])('%s', (_, offered, accept, chosen) => {
    expect(negotiate(offered, accept)).toBe(chosen);
  });

  it('reads at most 64 ranges of a hostile header', () => {
    expect(parseAccept(`${'text/html,'.repeat(10_000)}application/json`)).toHaveLength(64);
  });

  it('compares by essence', () => {
    expect(essenceOf(' Application/Vnd.X+JSON ; version=3')).toBe('application/vnd.x+json');
  });
});

describe('acceptProblem', () => {
  const op = {
    responses: new Map([
      ['200', { mediaTypes: ['application/json'] }],
      ['404', { mediaTypes: ['application/problem+json'] }],
    ]),
  } as unknown as Parameters<typeof acceptProblem>[0];

  it('is a 406 only when the Accept excludes every documented success type', () => {
    expect(acceptProblem(op, 'application/vnd.github.v3+json')).toBeUndefined();
    expect(acceptProblem(op, 'text/csv')).toMatchObject({ rule: 'request.accept', status: 406 });
  });
});

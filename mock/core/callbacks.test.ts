import { atPointer, evaluate, expandUrl, type CallbackSource } from './callbacks';

const source: CallbackSource = {
  method: 'POST',
  url: '/v1/subs?url=http%3A%2F%2F127.0.0.1%3A9%2Fq',
  headers: { 'x-hook': 'http://127.0.0.1:9/h' },
  query: { url: ['http://127.0.0.1:9/q'] },
  params: { id: '7' },
  requestBody: { callbackUrl: 'http://127.0.0.1:9/b', nested: { 'a/b': 'x' }, list: ['first'] },
  status: 201,
  responseBody: { id: 12 },
  responseHeaders: { Location: '/v1/subs/12' },
};

describe('runtime expressions', () => {
  it('reads the request, the answer and the exchange', () => {
    expect(evaluate('$request.body#/callbackUrl', source)).toBe('http://127.0.0.1:9/b');
    expect(evaluate('$request.query.url', source)).toBe('http://127.0.0.1:9/q');
    expect(evaluate('$request.header.X-Hook', source)).toBe('http://127.0.0.1:9/h');
    expect(evaluate('$request.path.id', source)).toBe('7');
    expect(evaluate('$response.body#/id', source)).toBe('12');
    expect(evaluate('$response.header.location', source)).toBe('/v1/subs/12');
    expect(evaluate('$statusCode', source)).toBe('201');
    expect(evaluate('$method', source)).toBe('POST');
    expect(evaluate('$request.body#/nested/a~1b', source)).toBe('x');
    expect(evaluate('$request.body#/list/0', source)).toBe('first');
    expect(evaluate('$request.body#/nested', source)).toBeUndefined();
    expect(evaluate('$request.body#/missing', source)).toBeUndefined();
    expect(evaluate('$nonsense', source)).toBeUndefined();
    expect(atPointer({ a: 1 }, '')).toEqual({ a: 1 });
  });

  it('expands a template, or says which expression names nothing', () => {
    expect(expandUrl('{$request.query.url}/items/{$response.body#/id}', source)).toEqual({
      url: 'http://127.0.0.1:9/q/items/12',
    });
    expect(expandUrl('$request.body#/callbackUrl', source)).toEqual({ url: 'http://127.0.0.1:9/b' });
    expect(expandUrl('{$request.body#/nope}', source)).toEqual({ problem: expect.stringMatching(/nope/) });
  });
});

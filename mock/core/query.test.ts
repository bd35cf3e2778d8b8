import { parseQuery } from './query';

describe('parseQuery', () => {
  it('reads repeated parameters in order', () => {
    expect({ ...parseQuery('a=1&b=x&a=2') }).toEqual({ a: ['1', '2'], b: ['x'] });
  });

  it('a parameter named like an Object property is a parameter like any other (no 500)', () => {
    const q = parseQuery('constructor=1&toString=2&__proto__=3&hasOwnProperty=4');
    expect(q.constructor).toEqual(['1']);
    expect(q.toString).toEqual(['2']);
    expect(q['__proto__']).toEqual(['3']);
    expect(q.hasOwnProperty).toEqual(['4']);
    expect(parseQuery('').constructor).toBeUndefined();
  });
});

import { exampleValue } from './example-value';

describe('exampleValue (OpenAPI 3.2 dataValue and serializedValue)', () => {
  it.each([
    ['dataValue first', { dataValue: { a: 1 }, value: { a: 2 } }, { a: 1 }],
    ['value as in 3.1', { value: [1] }, [1]],
    ['serializedValue as JSON text', { serializedValue: '{"a":3}' }, { a: 3 }],
    ['serializedValue that is no JSON: nothing', { serializedValue: 'a=1&b=2' }, undefined],
    ['an external value: nothing', { externalValue: 'x.json' }, undefined],
    ['not an object: nothing', 'text', undefined],
  ])('%s', (_label, example, expected) => {
    expect(exampleValue(example)).toEqual(expected);
  });
});

import { isObject, isObjectOrArray } from './json';

describe('the two meanings of "an object"', () => {
  it.each([
    [{}, true, true],
    [{ a: 1 }, true, true],
    [[], false, true],
    [[1], false, true],
    [null, false, false],
    ['x', false, false],
    [1, false, false],
    [undefined, false, false],
  ])('%j: isObject %s, isObjectOrArray %s', (value, object, container) => {
    expect(isObject(value)).toBe(object);
    expect(isObjectOrArray(value)).toBe(container);
  });
});

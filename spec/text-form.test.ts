import { structuredText } from './text-form';

describe('objects written as text (issue 40)', () => {
  it.each([
    ['text/plain', { a: 1 }, '{"a":1}'],
    ['application/vnd.x.version', [1, 2], '[1,2]'],
    ['application/csv', { a: 1, b: 'x,y' }, 'a,b\r\n1,"x,y"\r\n'],
    ['text/csv', [{ a: 1 }, { b: 'say "hi"' }], 'a,b\r\n1,\r\n,"say ""hi"""\r\n'],
    ['text/csv', [1, 2], '[1,2]'],
  ])('%s: %j', (type, value, text) => {
    expect(structuredText(type, value)).toBe(text);
  });

  it('leaves scalars to the caller', () => {
    expect(structuredText('text/plain', 'plain')).toBeUndefined();
  });
});

import { toJavaScriptPattern } from './regex-dialect';

describe('toJavaScriptPattern', () => {
  it('translates Ruby/PCRE string anchors', () => {
    const domain = toJavaScriptPattern('\\A(\\*\\.)?([a-zA-Z0-9-_]{1,63}\\.)+[a-zA-Z]{2,16}\\z');
    expect(new RegExp(domain, 'u').test('kit.example.org')).toBe(true);
    expect(new RegExp(domain, 'u').test('not a domain')).toBe(false);
    const lax = new RegExp(toJavaScriptPattern('\\A[a-z]+\\Z'), 'u');
    expect(lax.test('abc')).toBe(true);
    expect(lax.test('abc\n')).toBe(true);
    expect(lax.test('abc1')).toBe(false);
  });

  it('leaves escaped backslashes, character classes and JavaScript patterns alone', () => {
    expect(toJavaScriptPattern('^\\\\A$')).toBe('^\\\\A$');
    expect(toJavaScriptPattern('[\\A]')).toBe('[\\A]');
    expect(toJavaScriptPattern('^[\\w.]+$')).toBe('^[\\w.]+$');
  });
});

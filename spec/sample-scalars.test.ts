import { fullFormats } from 'ajv-formats/dist/formats';
import { stringFor, withoutLookbehinds } from './sample-scalars';
import { sampleOf } from './sample';
import { conformTo } from './conform';
import { fits, formatFits, patternOf } from './schema-fits';

describe('strings generated for formats and patterns (issue 40)', () => {
  const stringFormats = Object.entries(fullFormats)
    .filter(([, check]) => (check as { type?: string }).type !== 'number')
    .map(([name]) => name);

  it.each(stringFormats)('format %s is generated valid, as ajv-formats reads it', (format) => {
    for (const variant of [0, 3]) expect(formatFits(format, stringFor({ format }, variant))).toBe(true);
  });

  it('base64 (byte) stays base64 within the lengths the schema gives', () => {
    for (const bounds of [{ minLength: 40 }, { maxLength: 8 }, { minLength: 5, maxLength: 12 }]) {
      const schema = { type: 'string', format: 'byte', ...bounds };
      const text = stringFor(schema, 0);
      expect(fits(text, schema)).toBe(true);
    }
  });

  it("a pattern free at its start beside a format is met with both (optimade.local's versioned base URL)", () => {
    const schema = { type: 'string', format: 'uri', minLength: 1, pattern: '.+/v[0-1](\\.[0-9]+)*/?$' };
    for (const variant of [0, 2]) expect(fits(stringFor(schema, variant), schema)).toBe(true);
  });

  it('a pattern with a lookbehind (which randexp cannot parse) is still drawn from', () => {
    const pattern = '^((?!-)[A-Za-z0-9-]{1,63}(?<!-)\\.)+[A-Za-z]{2,6}$';
    const text = stringFor({ type: 'string', pattern }, 0);
    expect(patternOf(pattern)?.test(text)).toBe(true);
  });

  it('leaves out lookbehind groups only, not escapes or classes that look like them', () => {
    expect(withoutLookbehinds('a(?<!-)b(?<=(x|y))c')).toBe('abc');
    expect(withoutLookbehinds('\\(?<!x[(?<!]')).toBe('\\(?<!x[(?<!]');
  });

  it('leaves out an optional property no value of which fits (a pattern that cannot match), in both paths', () => {
    const arn = { type: 'string', pattern: '^arn:aws:ec2:placement-group/^.{1,255}$' };
    const schema = { type: 'object', required: ['id'], properties: { id: { type: 'string' }, arn } };
    expect(sampleOf(schema as never)).toEqual({ id: expect.any(String) as string });
    expect(conformTo({ id: 'x', arn: 'nope' }, schema as never)).toEqual({ id: 'x' });
  });

  it('keeps an int64 a safe integer (as Prism reads int64): a larger example gives way, unless the bounds allow none', () => {
    const big = 3408207428662661600;
    const id = { type: 'integer', format: 'int64', example: big };
    const schema = { type: 'object', required: ['id'], properties: { id }, example: { id: big } };
    const sampled = sampleOf(schema as never) as { id: number };
    expect(Number.isSafeInteger(sampled.id)).toBe(true);
    expect(fits(big, id)).toBe(false);
    const above = { type: 'integer', format: 'int64', minimum: 2 ** 60, example: big };
    expect(sampleOf(above as never)).toBe(big);
    expect(fits(2 ** 60, { ...above, example: undefined })).toBe(true);
  });
});

describe('an enum of states (issue 38)', () => {
  it('is sampled as the state a new record is in, wherever the enum lists it', () => {
    expect(sampleOf({ type: 'string', enum: ['expired', 'active', 'pending'] })).toBe('active');
    expect(sampleOf({ type: 'string', enum: ['closed', 'Open'] })).toBe('Open');
    expect(sampleOf({ type: 'string', enum: ['asc', 'desc'] })).toBe('asc');
    expect(sampleOf({ type: 'string', enum: ['gone', 'active'], example: 'gone' })).toBe('gone');
  });
});

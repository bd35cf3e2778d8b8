import { checkDelay, MAX_PREFER_DELAY_MS, parsePrefer } from './prefer';

describe('parsePrefer', () => {
  it('reads code, example, dynamic and delay, separated by commas or semicolons', () => {
    expect(parsePrefer('code=404, example=closed; dynamic=true delay=250')).toEqual({
      code: '404',
      example: 'closed',
      dynamic: true,
      delay: '250',
    });
    expect(parsePrefer('example="two words"')).toEqual({ example: 'two words' });
    expect(parsePrefer('Dynamic=TRUE')).toEqual({ dynamic: true });
    expect(parsePrefer('return=minimal')).toEqual({});
    expect(parsePrefer(undefined)).toEqual({});
  });
});

describe('checkDelay', () => {
  it('takes whole milliseconds up to the bound', () => {
    expect(checkDelay(undefined)).toBeUndefined();
    expect(checkDelay('0')).toEqual({ ms: 0 });
    expect(checkDelay(String(MAX_PREFER_DELAY_MS))).toEqual({ ms: MAX_PREFER_DELAY_MS });
    for (const bad of [String(MAX_PREFER_DELAY_MS + 1), '-1', '1.5', 'soon', ''])
      expect(checkDelay(bad)).toEqual({ problem: expect.stringMatching(/delay=/) });
  });
});

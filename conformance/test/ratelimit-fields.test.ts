import { quotaProblem, retryAfterProblem } from '../verdict/ratelimit-ietf';
import { decideWait, INITIAL_PACE, observeResponse } from '../send/pacer';
import { bindingLimit, parsePolicy, parseRateLimit } from '../../spec/http/ratelimit-fields';

const NOW = 1_700_000_000_000;

describe('the IETF RateLimit fields (draft-11, RFC 9651 Lists)', () => {
  it('parses the draft examples', () => {
    expect(parsePolicy('"minute";q=60;w=60, "day";q=1000;w=86400')).toEqual({
      ok: true,
      items: [
        { name: 'minute', q: 60, w: 60 },
        { name: 'day', q: 1000, w: 86400 },
      ],
    });
    expect(parseRateLimit('"minute";r=59;t=42')).toEqual({
      ok: true,
      items: [{ name: 'minute', r: 59, t: 42 }],
    });
  });

  it.each([
    ['"minute";r=59;t=4,,', /not a structured field List/],
    ['"minute";r=59;t=oops', /t that is not a non-negative Integer/],
    ['"minute";t=4', /needs r as a non-negative Integer/],
    ['"minute";r=-1', /needs r/],
    ['"minute";r=1.5', /needs r/],
    ['("a" "b");r=1', /each item must be a String/],
  ])('refuses %j', (raw, problem) => {
    const parsed = parseRateLimit(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(problem);
  });

  it('refuses a policy without q and a zero window', () => {
    expect(parsePolicy('"minute";w=60')).toMatchObject({ ok: false, problem: /needs q/ });
    expect(parsePolicy('"minute";q=1;w=0')).toMatchObject({ ok: false, problem: /w that is not a positive/ });
  });

  it('takes the limit with the smallest r as binding', () => {
    expect(bindingLimit('"minute";r=59;t=42, "day";r=3;t=8000')).toEqual({ name: 'day', r: 3, t: 8000 });
    expect(bindingLimit('garbage;;')).toBeUndefined();
  });

  it('judges r against q, and Retry-After against t', () => {
    expect(quotaProblem([{ name: 'm', r: 61 }], [{ name: 'm', q: 60 }])).toMatch(
      /r=61 exceeds its policy's q=60/,
    );
    expect(quotaProblem([{ name: 'm', r: 60 }], [{ name: 'm', q: 60 }])).toBeUndefined();
    const res = (retry: string) => ({ status: 429, headers: { 'retry-after': retry }, body: '' });
    expect(retryAfterProblem(res('42'), [{ name: 'm', r: 0, t: 42 }], NOW)).toBeUndefined();
    expect(retryAfterProblem(res('5'), [{ name: 'm', r: 0, t: 42 }], NOW)).toMatch(
      /earlier than RateLimit t=42/,
    );
  });

  it('paces from RateLimit when present: r remaining, t seconds to the reset', () => {
    const state = observeResponse(INITIAL_PACE, 200, { ratelimit: '"minute";r=2;t=10' }, NOW, false);
    expect(decideWait(state, NOW, 2)).toEqual({ waitMs: 10_250, why: 'RateLimit r is 2' });
  });
});

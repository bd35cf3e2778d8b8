import { decideWait, INITIAL_PACE, noteSent, observeResponse, retryAfterMs } from '../send/pacer';

const NOW = 1_700_000_000_000;
const headers = (remaining: number, reset: number) => ({
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': String(reset),
});

describe('pacing from the rate-limit headers', () => {
  it('does not wait while the window has room', () => {
    const state = observeResponse(INITIAL_PACE, 200, headers(30, NOW / 1000 + 40), NOW, false);
    expect(decideWait(state, NOW, 2).waitMs).toBe(0);
  });

  it('waits for the reset when the remaining budget reaches the reserve', () => {
    const state = observeResponse(INITIAL_PACE, 200, headers(2, NOW / 1000 + 10), NOW, false);
    const { waitMs, why } = decideWait(state, NOW, 2);
    expect(waitMs).toBe(10_250);
    expect(why).toMatch(/Remaining is 2/);
  });

  it('counts requests in flight against the budget', () => {
    const state = observeResponse(INITIAL_PACE, 200, headers(3, NOW / 1000 + 10), NOW, false);
    expect(decideWait(noteSent(state), NOW, 2).waitMs).toBeGreaterThan(0);
  });

  it('after an unexpected 429 blocks for Retry-After, and backs off exponentially without it', () => {
    const withHeader = observeResponse(INITIAL_PACE, 429, { 'retry-after': '7' }, NOW, false);
    expect(decideWait(withHeader, NOW, 0).waitMs).toBe(7000);
    const first = observeResponse(INITIAL_PACE, 429, {}, NOW, false);
    const second = observeResponse(first, 429, {}, NOW, false);
    expect(decideWait(first, NOW, 0).waitMs).toBe(1000);
    expect(decideWait(second, NOW, 0).waitMs).toBe(2000);
  });

  it('does not block after a 429 the check asked for', () => {
    const state = observeResponse(INITIAL_PACE, 429, { 'retry-after': '30' }, NOW, true);
    expect(decideWait(state, NOW, 0).waitMs).toBe(0);
  });

  it.each([
    ['3', 3000],
    ['0.5', 500],
    [new Date(NOW + 4000).toUTCString(), 4000],
    ['soon', undefined],
    [undefined, undefined],
  ])('reads Retry-After %j as %j ms', (value, ms) => {
    expect(retryAfterMs(value, NOW)).toBe(ms);
  });
});

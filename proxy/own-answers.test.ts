import { DEFAULT_SPEC_PATH, loadSpecOrThrow } from '../spec/load';
import { createOwnAnswers } from './own-answers';

/** The upstream's rate-limit values an own answer repeats, per caller (a run of one caller takes the fast path). */
describe('own answers remember the upstream values per caller', () => {
  it('keeps each caller its own latest values, across runs of one caller and after a switch', async () => {
    const spec = await loadSpecOrThrow(DEFAULT_SPEC_PATH);
    const answers = createOwnAnswers(spec);
    const op = spec.operations.find((o) => o.method === 'get' && o.path === '/categories');
    const up = (remaining: string) => ({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': remaining,
      'x-ratelimit-reset': '1700000000',
    });
    const a = { authorization: 'Bearer a' };
    const b = { authorization: 'Bearer b' };
    const conn = {};
    const remainingOf = (headers: Record<string, string>) =>
      answers.render(op, 429, 'rate_limited', 'slow down', { headers, address: '10.0.0.1', connection: conn })
        .headers['X-RateLimit-Remaining'];
    answers.remember(a, '10.0.0.1', up('59'), conn);
    answers.remember(a, '10.0.0.1', up('58'), conn);
    expect(remainingOf(a)).toBe('58');
    answers.remember(b, '10.0.0.1', up('9'), conn);
    answers.remember(b, '10.0.0.1', up('8'), conn);
    expect(remainingOf(b)).toBe('8');
    expect(remainingOf(a)).toBe('58');
    answers.remember(a, '10.0.0.1', up('57'), conn);
    expect(remainingOf(a)).toBe('57');
    expect(remainingOf(b)).toBe('8');
    // An unknown caller at that address gets the address's latest values.
    expect(remainingOf({ authorization: 'Bearer c' })).toBe('57');
  });
});

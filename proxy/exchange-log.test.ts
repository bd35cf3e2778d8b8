import { createExchangeLog } from './exchange-log';

describe("the inspector's ring of exchanges", () => {
  it.each([3, 5, 7, 12])('keeps the newest in order, oldest first, after %i exchanges', (n) => {
    let clock = 1000;
    const log = createExchangeLog(5, () => clock);
    for (let i = 0; i < n; i++) {
      clock += 1;
      log.add('GET', `/v1/x/${i}`, 200, clock - 1, []);
    }
    const { total, exchanges } = log.snapshot();
    expect(total).toBe(n);
    const kept = Array.from({ length: Math.min(n, 5) }, (_, k) => `/v1/x/${n - Math.min(n, 5) + k}`);
    expect(exchanges.map((e) => e.path)).toEqual(kept);
    expect(exchanges.every((e) => e.ms === 1)).toBe(true);
  });

  it('returns the entry so a late finding lands on the exchange it belongs to', () => {
    const log = createExchangeLog(2);
    const first = log.add('GET', '/a', 200, Date.now(), []);
    first.violations.push({ side: 'response', rule: 'upstream.complete', message: 'cut' });
    expect(log.snapshot().exchanges[0]?.violations).toHaveLength(1);
  });
});

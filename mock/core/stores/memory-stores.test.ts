import { createMemoryRecordStore } from './memory-record-store';
import { createMemoryLimiterStore } from './memory-limiter-store';
import type { BanPolicy, WindowSpec } from './types';
import { recordStoreSuite, limiterStoreSuite } from '../../../test/support/store-suite';

recordStoreSuite('memory', async () => createMemoryRecordStore());
limiterStoreSuite('memory', async () => createMemoryLimiterStore());

describe('memory limiter store: bounded and expired', () => {
  const MINUTE = 60_000;
  const DAY = 86_400_000;
  const windows: WindowSpec[] = [
    { name: 'minute', limit: 10, windowMs: MINUTE },
    { name: 'day', limit: 100, windowMs: DAY },
  ];
  const ban: BanPolicy = { threshold: 3, banMs: 5 * MINUTE };
  /** 12:00:10 UTC, the clock passed in as `nowMs`. */
  const T0 = Date.UTC(2026, 10, 22, 12, 0, 10);
  const nextDay = (Math.floor(T0 / DAY) + 1) * DAY;

  it('forgets an address once its last window has ended (not at the end of a later window)', async () => {
    const store = createMemoryLimiterStore();
    for (let i = 0; i < 1000; i++) await store.consume(`addr:10.0.${i >> 8}.${i & 255}`, windows, T0, ban);
    expect(store.size()).toBe(1000);
    // Still within the day: the day counters are live, nothing is dropped.
    await store.consume('addr:192.0.2.1', windows, T0 + 2 * MINUTE, ban);
    expect(store.size()).toBe(1001);
    // The day window has ended for all of them: the next request sweeps them.
    await store.consume('addr:192.0.2.2', windows, nextDay + 1, ban);
    expect(store.size()).toBe(1);
    expect(await store.peek('addr:10.0.0.0', windows, nextDay + 1)).toEqual([0, 0]);
  });

  it('keeps a ban until it ends, then drops it', async () => {
    const store = createMemoryLimiterStore();
    const tiny: WindowSpec[] = [{ name: 'minute', limit: 1, windowMs: MINUTE }];
    const t = Date.UTC(2026, 10, 22, 12, 0, 0);
    for (let i = 0; i < 4; i++) await store.consume('addr:192.0.2.9', tiny, t, ban);
    expect(await store.consume('addr:192.0.2.9', tiny, t + 4 * MINUTE, ban)).toMatchObject({
      kind: 'banned',
    });
    await store.consume('addr:192.0.2.10', tiny, t + 5 * MINUTE + 1, ban);
    expect(store.size()).toBe(1);
  });

  it('holds at most maxAddresses addresses, forgetting the least recently seen; keys are never evicted', async () => {
    const store = createMemoryLimiterStore({ maxAddresses: 100 });
    await store.consume('key:abc', windows, T0, ban);
    await store.consume('addr:192.0.2.1', windows, T0, ban);
    for (let i = 0; i < 150; i++) {
      await store.consume(`addr:10.0.0.${i}`, windows, T0, ban);
      // 192.0.2.1 keeps calling: it is recent, so it stays.
      if (i % 50 === 0) await store.consume('addr:192.0.2.1', windows, T0, ban);
    }
    expect(store.size()).toBe(101);
    expect(await store.peek('key:abc', windows, T0)).toEqual([1, 1]);
    expect(await store.peek('addr:192.0.2.1', windows, T0)).toEqual([4, 4]);
    expect(await store.peek('addr:10.0.0.0', windows, T0)).toEqual([0, 0]);
    expect(await store.peek('addr:10.0.0.149', windows, T0)).toEqual([1, 1]);
  });
});

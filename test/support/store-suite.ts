/**
 * One behaviour suite for every store implementation (memory, Redis): call these from a test file
 * with a factory. Not a test file itself.
 */
import type { BanPolicy, CategoryStore, LimiterStore, WindowSpec } from '../../mock/core/stores/types';

type Factory<T> = () => Promise<T>;

const MINUTE = 60_000;
const DAY = 86_400_000;
const free: WindowSpec[] = [
  { name: 'minute', limit: 60, windowMs: MINUTE },
  { name: 'day', limit: 1000, windowMs: DAY },
];
const noBan: BanPolicy = { threshold: 0, banMs: 0 };
// A moment inside a day and a minute, far from both boundaries.
const T0 = Date.UTC(2026, 10, 22, 12, 0, 10);

/** The behaviour every CategoryStore must have. */
export function categoryStoreSuite(name: string, factory: Factory<CategoryStore>): void {
  describe(`${name} category store`, () => {
    let store: CategoryStore;
    beforeEach(async () => {
      store = await factory();
      await store.reset([]);
    });
    afterEach(() => store.close());

    it('assigns increasing unique integer ids and lists in creation order', async () => {
      const a = await store.create({ name: 'dog', description: 'Dogs' });
      const b = await store.create({ name: 'cat' });
      expect(a).toEqual({ id: 1, name: 'dog', description: 'Dogs' });
      expect(b).toEqual({ id: 2, name: 'cat' });
      expect(await store.list()).toEqual([a, b]);
    });

    it('never loses or duplicates a record under concurrent creates', async () => {
      const created = await Promise.all(
        Array.from({ length: 200 }, (_, i) => store.create({ name: `c${i}` })),
      );
      const ids = new Set(created.map((c) => c.id));
      expect(ids.size).toBe(200);
      const listed = await store.list();
      expect(listed).toHaveLength(200);
      expect(new Set(listed.map((c) => c.name)).size).toBe(200);
      expect(listed.map((c) => c.id)).toEqual([...listed.map((c) => c.id)].sort((x, y) => x - y));
    });

    it('changes its version on every change and keeps it otherwise', async () => {
      const v0 = await store.version();
      expect(await store.version()).toBe(v0);
      await store.create({ name: 'dog' });
      const v1 = await store.version();
      expect(v1).not.toBe(v0);
      await store.reset([]);
      expect(await store.version()).not.toBe(v1);
    });

    it('reset replaces everything with the seed and restarts ids', async () => {
      await store.create({ name: 'gone' });
      await store.reset([{ name: 'dog' }, { name: 'cat', description: 'Cats' }]);
      expect(await store.list()).toEqual([
        { id: 1, name: 'dog' },
        { id: 2, name: 'cat', description: 'Cats' },
      ]);
      expect((await store.create({ name: 'rabbit' })).id).toBe(3);
    });

    it('stores only the published fields', async () => {
      const input = { name: 'dog', extra: 'x' } as { name: string };
      expect(await store.create(input)).toEqual({ id: 1, name: 'dog' });
    });
  });
}

/** The behaviour every LimiterStore must have. */
export function limiterStoreSuite(name: string, factory: Factory<LimiterStore>): void {
  describe(`${name} limiter store`, () => {
    let store: LimiterStore;
    beforeEach(async () => {
      store = await factory();
      await store.reset();
    });
    afterEach(() => store.close());

    it('admits up to the limit, counting every window, then limits without counting', async () => {
      for (let i = 1; i <= 60; i++) {
        expect(await store.consume('k', free, T0, noBan)).toEqual({ kind: 'admitted', used: [i, i] });
      }
      expect(await store.consume('k', free, T0, noBan)).toEqual({ kind: 'limited', used: [60, 60] });
      expect(await store.peek('k', free, T0)).toEqual([60, 60]);
    });

    it('starts a new minute window at the boundary while the day keeps counting', async () => {
      for (let i = 0; i < 60; i++) await store.consume('k', free, T0, noBan);
      const nextMinute = (Math.floor(T0 / MINUTE) + 1) * MINUTE;
      expect(await store.consume('k', free, nextMinute - 1, noBan)).toMatchObject({ kind: 'limited' });
      expect(await store.consume('k', free, nextMinute, noBan)).toEqual({ kind: 'admitted', used: [1, 61] });
    });

    it('limits on the day window and frees it at UTC midnight', async () => {
      const small: WindowSpec[] = [
        { name: 'minute', limit: 5, windowMs: MINUTE },
        { name: 'day', limit: 3, windowMs: DAY },
      ];
      for (let i = 0; i < 3; i++) await store.consume('k', small, T0, noBan);
      expect(await store.consume('k', small, T0 + 5 * MINUTE, noBan)).toMatchObject({ kind: 'limited' });
      const midnight = (Math.floor(T0 / DAY) + 1) * DAY;
      expect(await store.consume('k', small, midnight, noBan)).toEqual({ kind: 'admitted', used: [1, 1] });
    });

    it('keeps subjects apart', async () => {
      await store.consume('a', free, T0, noBan);
      expect(await store.consume('b', free, T0, noBan)).toEqual({ kind: 'admitted', used: [1, 1] });
    });

    it('is exact under concurrency', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, () => store.consume('k', free, T0, noBan)),
      );
      expect(outcomes.filter((o) => o.kind === 'admitted')).toHaveLength(60);
    });

    it('bans a subject after repeated limited requests, until the ban ends', async () => {
      const ban: BanPolicy = { threshold: 3, banMs: 300_000 };
      const tiny: WindowSpec[] = [{ name: 'minute', limit: 1, windowMs: MINUTE }];
      await store.consume('k', tiny, T0, ban);
      expect((await store.consume('k', tiny, T0, ban)).kind).toBe('limited');
      expect((await store.consume('k', tiny, T0, ban)).kind).toBe('limited');
      expect(await store.consume('k', tiny, T0, ban)).toMatchObject({
        kind: 'banned',
        untilMs: T0 + 300_000,
      });
      // Still banned after the minute window has reset.
      expect(await store.consume('k', tiny, T0 + 120_000, ban)).toMatchObject({ kind: 'banned' });
      expect((await store.consume('k', tiny, T0 + 300_000, ban)).kind).toBe('admitted');
    });

    it('reset forgets counters and bans', async () => {
      const ban: BanPolicy = { threshold: 1, banMs: 300_000 };
      const tiny: WindowSpec[] = [{ name: 'minute', limit: 1, windowMs: MINUTE }];
      await store.consume('k', tiny, T0, ban);
      await store.consume('k', tiny, T0, ban);
      await store.reset();
      expect(await store.consume('k', tiny, T0, ban)).toEqual({ kind: 'admitted', used: [1] });
    });
  });
}

/**
 * One behaviour suite for every store implementation (memory, Redis): call these from a test file
 * with a factory. Not a test file itself.
 */
import type {
  BanPolicy,
  JsonObject,
  LimiterStore,
  RecordStore,
  StoreResource,
  WindowSpec,
} from '../../mock/core/stores/types';

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

const BOOKS: StoreResource = { name: 'books', idField: 'id', idType: 'integer' };
const TAGS: StoreResource = { name: 'tags', idField: 'slug', idType: 'string' };
const NOTES: StoreResource = { name: 'notes', idField: 'key', idType: 'string' };
const SCHEDULES: StoreResource = {
  name: 'schedules',
  idField: 'id',
  idType: 'string',
  idForm: { prefix: 'sched_', kind: 'counter' },
};
const HOOKS: StoreResource = {
  name: 'hooks',
  idField: 'id',
  idType: 'string',
  idForm: { prefix: 'wh_', kind: 'random', alphabet: '0123456789abcdef', length: 16 },
};
const TINY: StoreResource = {
  name: 'tiny',
  idField: 'id',
  idType: 'string',
  idForm: { prefix: 't_', kind: 'random', alphabet: '01', length: 1 },
};
const MAX = 10_000;

async function created(store: RecordStore, resource: StoreResource, record: JsonObject): Promise<JsonObject> {
  const out = await store.create(resource, record, MAX);
  if (!out.ok) throw new Error(`create refused: ${out.reason}`);
  return out.record;
}

/** The behaviour every RecordStore must have. */
export function recordStoreSuite(name: string, factory: Factory<RecordStore>): void {
  describe(`${name} record store`, () => {
    let store: RecordStore;
    beforeEach(async () => {
      store = await factory();
      await store.reset({}, [BOOKS, TAGS, NOTES, SCHEDULES, HOOKS, TINY]);
    });
    afterEach(() => store.close());

    it('assigns increasing unique integer ids, id first, and lists in creation order', async () => {
      const a = await created(store, BOOKS, { title: 'Dune', year: 1965 });
      const b = await created(store, BOOKS, { title: 'Emma' });
      expect(a).toEqual({ id: 1, title: 'Dune', year: 1965 });
      expect(Object.keys(a)[0]).toBe('id');
      expect(b).toEqual({ id: 2, title: 'Emma' });
      expect(await store.list('books')).toEqual([a, b]);
    });

    it('assigns a UUID to a string id, and keeps a client-chosen id unless it is taken', async () => {
      const n = await created(store, NOTES, { text: 'x' });
      expect(n.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await created(store, TAGS, { slug: 'sci-fi' })).toEqual({ slug: 'sci-fi' });
      expect(await store.create(TAGS, { slug: 'sci-fi', more: 1 }, MAX)).toEqual({
        ok: false,
        reason: 'duplicate',
      });
      expect(await store.list('tags')).toEqual([{ slug: 'sci-fi' }]);
    });

    it('makes ids in the document form: a prefix and a counter never given again, past client-chosen ids', async () => {
      const a = await created(store, SCHEDULES, { cron: 'a' });
      expect(a).toEqual({ id: 'sched_1', cron: 'a' });
      expect(Object.keys(a)[0]).toBe('id');
      await created(store, SCHEDULES, { id: 'sched_2', cron: 'client' });
      expect((await created(store, SCHEDULES, { cron: 'b' })).id).toBe('sched_3');
      await store.remove('schedules', 'sched_3');
      expect((await created(store, SCHEDULES, { cron: 'c' })).id).toBe('sched_4');
      expect(await store.get('schedules', 'sched_1')).toEqual(a);
    });

    it('makes ids in the document form: a prefix and a random part of its alphabet and length', async () => {
      const made = await Promise.all(Array.from({ length: 50 }, () => created(store, HOOKS, { url: 'u' })));
      const ids = made.map((m) => String(m.id));
      for (const id of ids) expect(id).toMatch(/^wh_[0-9a-f]{16}$/);
      expect(new Set(ids).size).toBe(50);
      expect(await store.get('hooks', ids[0] ?? '')).toEqual(made[0]);
    });

    it('says when a small id space is taken (no duplicate, nothing stored)', async () => {
      const tiny = TINY;
      const ids = [await created(store, tiny, { n: 1 }), await created(store, tiny, { n: 2 })].map(
        (r) => r.id,
      );
      expect(ids.sort()).toEqual(['t_0', 't_1']);
      expect(await store.create(tiny, { n: 3 }, MAX)).toEqual({ ok: false, reason: 'ids' });
      expect(await store.list('tiny')).toHaveLength(2);
    });

    it('keeps each resource apart, with its own id sequence', async () => {
      await created(store, BOOKS, { title: 'a' });
      await created(store, BOOKS, { title: 'b' });
      expect(await created(store, { ...BOOKS, name: 'authors' }, { n: 1 })).toEqual({ id: 1, n: 1 });
      expect(await store.list('authors')).toHaveLength(1);
    });

    it('reads, replaces (id and place kept) and removes by id; unknown ids are undefined', async () => {
      await created(store, BOOKS, { title: 'a' });
      await created(store, BOOKS, { title: 'b' });
      expect(await store.get('books', '2')).toEqual({ id: 2, title: 'b' });
      expect(await store.get('books', '9')).toBeUndefined();
      expect(await store.replace(BOOKS, '1', { id: 77, title: 'A' })).toEqual({ id: 1, title: 'A' });
      expect(await store.replace(BOOKS, '9', { title: 'x' })).toBeUndefined();
      expect(await store.list('books')).toEqual([
        { id: 1, title: 'A' },
        { id: 2, title: 'b' },
      ]);
      expect(await store.remove('books', '1')).toEqual({ id: 1, title: 'A' });
      expect(await store.remove('books', '1')).toBeUndefined();
      expect(await store.list('books')).toEqual([{ id: 2, title: 'b' }]);
      // An id is never handed out again after its record was deleted.
      expect((await created(store, BOOKS, { title: 'c' })).id).toBe(3);
    });

    it('never loses or duplicates a record under concurrent creates, replaces and deletes', async () => {
      const made = await Promise.all(
        Array.from({ length: 200 }, (_, i) => created(store, BOOKS, { title: `t${i}` })),
      );
      expect(new Set(made.map((c) => c.id)).size).toBe(200);
      await Promise.all(
        made.map((m, i) =>
          i % 2 === 0
            ? store.remove('books', String(m.id))
            : store.replace(BOOKS, String(m.id), { title: `r${i}` }),
        ),
      );
      const listed = await store.list('books');
      expect(listed).toHaveLength(100);
      expect(listed.every((r) => String(r.title).startsWith('r'))).toBe(true);
      const ids = listed.map((r) => r.id as number);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    });

    it('refuses a create beyond the cap, storing nothing', async () => {
      await store.create(BOOKS, { title: 'a' }, 2);
      await store.create(BOOKS, { title: 'b' }, 2);
      expect(await store.create(BOOKS, { title: 'c' }, 2)).toEqual({ ok: false, reason: 'full' });
      expect(await store.list('books')).toHaveLength(2);
    });

    it('changes its version on every change and keeps it otherwise', async () => {
      const v0 = await store.version('books');
      expect(await store.version('books')).toBe(v0);
      await created(store, BOOKS, { title: 'a' });
      const v1 = await store.version('books');
      expect(v1).not.toBe(v0);
      await store.replace(BOOKS, '1', { title: 'b' });
      const v2 = await store.version('books');
      expect(v2).not.toBe(v1);
      await store.reset({}, [BOOKS]);
      expect(await store.version('books')).not.toBe(v2);
    });

    it('reset replaces everything with the seed and restarts ids', async () => {
      await created(store, BOOKS, { title: 'gone' });
      await store.reset({ books: [{ title: 'dog' }, { title: 'cat', extra: 'x' }] }, [BOOKS]);
      expect(await store.list('books')).toEqual([
        { id: 1, title: 'dog' },
        { id: 2, title: 'cat', extra: 'x' },
      ]);
      expect((await created(store, BOOKS, { title: 'rabbit' })).id).toBe(3);
    });

    it('keeps one bucket per parent: ids counted in each, all listed together, all reset', async () => {
      const under = (parent: string): StoreResource => ({ ...BOOKS, name: `books/${parent}` });
      expect((await created(store, under('a'), { title: 'a1' })).id).toBe(1);
      expect((await created(store, under('a'), { title: 'a2' })).id).toBe(2);
      expect((await created(store, under('b'), { title: 'b1' })).id).toBe(1);
      expect(await store.list('books/b')).toEqual([{ id: 1, title: 'b1' }]);
      expect(await store.list('books/nobody')).toEqual([]);
      const every = (await store.listEvery?.('books')) ?? [];
      expect(every.map((b) => b.title).sort()).toEqual(['a1', 'a2', 'b1']);
      await store.reset({}, [BOOKS]);
      expect(await store.list('books/a')).toEqual([]);
      expect((await created(store, under('a'), { title: 'again' })).id).toBe(1);
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

    it('lists the callers held now: bans first with their end, limited ones until their full window ends', async () => {
      const ban: BanPolicy = { threshold: 2, banMs: 300_000 };
      const tiny: WindowSpec[] = [{ name: 'minute', limit: 1, windowMs: MINUTE }];
      const minuteEnd = (Math.floor(T0 / MINUTE) + 1) * MINUTE;
      await store.consume('ok', tiny, T0, ban);
      for (let i = 0; i < 2; i++) await store.consume('lim', tiny, T0, ban);
      for (let i = 0; i < 3; i++) await store.consume('bad', tiny, T0, ban);
      expect(await store.held(T0, 10)).toEqual({
        callers: [
          { subject: 'bad', state: 'banned', untilMs: T0 + 300_000 },
          { subject: 'lim', state: 'limited', untilMs: minuteEnd },
        ],
        truncated: false,
      });
      // A full day window holds the caller until UTC midnight.
      const daily: WindowSpec[] = [
        { name: 'minute', limit: 5, windowMs: MINUTE },
        { name: 'day', limit: 1, windowMs: DAY },
      ];
      await store.consume('day', daily, T0, ban);
      await store.consume('day', daily, T0, ban);
      const midnight = (Math.floor(T0 / DAY) + 1) * DAY;
      expect((await store.held(T0, 10)).callers).toContainEqual({
        subject: 'day',
        state: 'limited',
        untilMs: midnight,
      });
      // Past the minute only the ban and the day hold remain; past the ban, only the day.
      expect((await store.held(minuteEnd, 10)).callers.map((c) => c.subject)).toEqual(['bad', 'day']);
      expect((await store.held(T0 + 300_000, 10)).callers.map((c) => c.subject)).toEqual(['day']);
    });

    it('caps the list and says so', async () => {
      const tiny: WindowSpec[] = [{ name: 'minute', limit: 1, windowMs: MINUTE }];
      for (const s of ['a', 'b', 'c']) for (let i = 0; i < 2; i++) await store.consume(s, tiny, T0, noBan);
      const out = await store.held(T0, 2);
      expect(out.callers).toHaveLength(2);
      expect(out.truncated).toBe(true);
      expect((await store.held(T0, 3)).truncated).toBe(false);
    });

    it('lifts one caller: its ban and counts go, the others keep theirs', async () => {
      const ban: BanPolicy = { threshold: 1, banMs: 300_000 };
      const tiny: WindowSpec[] = [{ name: 'minute', limit: 1, windowMs: MINUTE }];
      for (const s of ['one', 'two']) for (let i = 0; i < 2; i++) await store.consume(s, tiny, T0, ban);
      expect(await store.lift('one', T0 + 1)).toBe(true);
      expect(await store.consume('one', tiny, T0 + 1, ban)).toEqual({ kind: 'admitted', used: [1] });
      expect(await store.consume('two', tiny, T0 + 1, ban)).toMatchObject({ kind: 'banned' });
      expect((await store.held(T0 + 1, 10)).callers.map((c) => c.subject)).toEqual(['two']);
      expect(await store.lift('nobody', T0 + 1)).toBe(false);
      await store.reset();
      expect(await store.held(T0 + 1, 10)).toEqual({ callers: [], truncated: false });
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

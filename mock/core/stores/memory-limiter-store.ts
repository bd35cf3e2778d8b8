/** Rate-limit counters in process memory. JavaScript runs one request at a time, so each call is atomic. */
import {
  windowIndex,
  type BanPolicy,
  type ConsumeOutcome,
  type LimiterStore,
  type WindowSpec,
} from './types';

interface Counter {
  index: number;
  count: number;
  expiresMs: number;
}

/** One subject's counters, by window name. */
type Windows = Partial<Record<WindowSpec['name'], Counter>>;

const MINUTE_MS = 60_000;
/** Sweep stale subjects once this many have been seen, so anonymous addresses cannot grow memory forever. */
const SWEEP_EVERY = 10_000;

/** Build an in-memory limiter store. */
export function createMemoryLimiterStore(): LimiterStore {
  // Keyed by subject alone, each window's counter under its name: no key is built per window per request.
  const counters = new Map<string, Windows>();
  const rejections = new Map<string, Counter>();
  const bans = new Map<string, number>();
  let inserts = 0;

  const sweepSometimes = (nowMs: number): void => {
    if (++inserts % SWEEP_EVERY === 0) sweep(nowMs);
  };
  const bump = (map: Map<string, Counter>, key: string, index: number, windowMs: number): number => {
    const c = map.get(key);
    if (c && c.index === index) return ++c.count;
    if (!c) sweepSometimes(index * windowMs);
    map.set(key, { index, count: 1, expiresMs: (index + 1) * windowMs });
    return 1;
  };
  const sweep = (nowMs: number): void => {
    for (const [k, c] of rejections) if (c.expiresMs <= nowMs) rejections.delete(k);
    for (const [k, mine] of counters)
      if (!Object.values(mine).some((c) => c.expiresMs > nowMs)) counters.delete(k);
    for (const [k, until] of bans) if (until <= nowMs) bans.delete(k);
  };
  const countsOf = (mine: Windows | undefined, windows: readonly WindowSpec[], nowMs: number): number[] => {
    const used: number[] = [];
    for (const w of windows) {
      const c = mine?.[w.name];
      used.push(c && c.index === windowIndex(w, nowMs) ? c.count : 0);
    }
    return used;
  };
  const peek = (subject: string, windows: readonly WindowSpec[], nowMs: number): number[] =>
    countsOf(counters.get(subject), windows, nowMs);
  /** Count one request in every window of `subject` (its counters `mine`); the counts including it. */
  const count = (
    subject: string,
    found: Windows | undefined,
    windows: readonly WindowSpec[],
    nowMs: number,
  ): number[] => {
    let mine = found;
    if (!mine) {
      sweepSometimes(nowMs);
      counters.set(subject, (mine = {}));
    }
    const used: number[] = [];
    for (const w of windows) {
      const index = windowIndex(w, nowMs);
      const c = mine[w.name];
      if (c && c.index === index) used.push(++c.count);
      else {
        mine[w.name] = { index, count: 1, expiresMs: (index + 1) * w.windowMs };
        used.push(1);
      }
    }
    return used;
  };

  const consume = (
    subject: string,
    windows: readonly WindowSpec[],
    nowMs: number,
    ban: BanPolicy,
  ): ConsumeOutcome => {
    const mine = counters.get(subject);
    const used = countsOf(mine, windows, nowMs);
    const bannedUntil = bans.get(subject);
    if (bannedUntil !== undefined && bannedUntil > nowMs)
      return { kind: 'banned', untilMs: bannedUntil, used };
    if (windows.some((w, i) => (used[i] ?? 0) >= w.limit)) {
      const rejected = bump(rejections, subject, Math.floor(nowMs / MINUTE_MS), MINUTE_MS);
      if (ban.threshold > 0 && rejected >= ban.threshold) {
        bans.set(subject, nowMs + ban.banMs);
        rejections.delete(subject);
        return { kind: 'banned', untilMs: nowMs + ban.banMs, used };
      }
      return { kind: 'limited', used };
    }
    return { kind: 'admitted', used: count(subject, mine, windows, nowMs) };
  };

  return {
    // Answered at once, not through a promise: the rate-limit stage then awaits nothing.
    consume,
    peek,
    reset: async () => {
      counters.clear();
      rejections.clear();
      bans.clear();
    },
    close: async () => undefined,
  };
}

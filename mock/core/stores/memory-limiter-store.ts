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

const MINUTE_MS = 60_000;
/** Sweep stale subjects once this many have been seen, so anonymous addresses cannot grow memory forever. */
const SWEEP_EVERY = 10_000;

/** Build an in-memory limiter store. */
export function createMemoryLimiterStore(): LimiterStore {
  const counters = new Map<string, Counter>();
  const rejections = new Map<string, Counter>();
  const bans = new Map<string, number>();
  let inserts = 0;

  const read = (map: Map<string, Counter>, key: string, index: number): number => {
    const c = map.get(key);
    return c && c.index === index ? c.count : 0;
  };
  const bump = (map: Map<string, Counter>, key: string, index: number, windowMs: number): number => {
    const c = map.get(key);
    if (c && c.index === index) return ++c.count;
    if (!c && ++inserts % SWEEP_EVERY === 0) sweep(index * windowMs);
    map.set(key, { index, count: 1, expiresMs: (index + 1) * windowMs });
    return 1;
  };
  const sweep = (nowMs: number): void => {
    for (const map of [counters, rejections])
      for (const [k, c] of map) if (c.expiresMs <= nowMs) map.delete(k);
    for (const [k, until] of bans) if (until <= nowMs) bans.delete(k);
  };
  const peek = (subject: string, windows: readonly WindowSpec[], nowMs: number): number[] =>
    windows.map((w) => read(counters, `${subject}|${w.name}`, windowIndex(w, nowMs)));

  const consume = (
    subject: string,
    windows: readonly WindowSpec[],
    nowMs: number,
    ban: BanPolicy,
  ): ConsumeOutcome => {
    const used = peek(subject, windows, nowMs);
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
    return {
      kind: 'admitted',
      used: windows.map((w) => bump(counters, `${subject}|${w.name}`, windowIndex(w, nowMs), w.windowMs)),
    };
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

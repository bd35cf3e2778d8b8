/**
 * Rate-limit counters in process memory. JavaScript runs one request at a time, so each call is atomic.
 *
 * Bounded like nginx's `limit_req_zone`: the state of client addresses (anonymous callers) lives in a table of
 * at most `maxAddresses` entries kept in least-recently-used order; when it is full, the address seen longest
 * ago is forgotten (it starts again with a full quota). Keys are never evicted by addresses: their number is
 * fixed by the keys file. Every entry is dropped once its last window (or ban) has ended, by a sweep that runs
 * at most once a minute of the mock's clock.
 */
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
}

interface Entry {
  windows: Partial<Record<WindowSpec['name'], Counter>>;
  /** Requests refused in the current minute, toward a ban. */
  rejected?: Counter;
  bannedUntil?: number;
  /** When every window and ban of this entry has ended: the sweep drops it then. */
  expiresMs: number;
}

export interface MemoryLimiterOptions {
  /** Most client addresses with state at once (default 100,000); when full, the least recently seen goes. */
  maxAddresses?: number;
}

export interface MemoryLimiterStore extends LimiterStore {
  /** Subjects (keys and addresses) with state now. */
  size(): number;
}

const MINUTE_MS = 60_000;
/** Expired entries are swept at most this often (by the clock passed in, so tests can move it). */
const SWEEP_INTERVAL_MS = MINUTE_MS;
export const DEFAULT_MAX_ADDRESSES = 100_000;

/** Build an in-memory limiter store. */
export function createMemoryLimiterStore(options: MemoryLimiterOptions = {}): MemoryLimiterStore {
  const maxAddresses = Math.max(1, options.maxAddresses ?? DEFAULT_MAX_ADDRESSES);
  const keys = new Map<string, Entry>();
  /** In least-recently-used order: the first entry is the one seen longest ago. */
  const addresses = new Map<string, Entry>();
  let nextSweep = -Infinity;

  const tableOf = (subject: string): Map<string, Entry> => (subject.startsWith('addr:') ? addresses : keys);

  const sweep = (nowMs: number): void => {
    for (const map of [keys, addresses]) for (const [k, e] of map) if (e.expiresMs <= nowMs) map.delete(k);
  };
  const maybeSweep = (nowMs: number): void => {
    if (nowMs < nextSweep) return;
    nextSweep = nowMs + SWEEP_INTERVAL_MS;
    sweep(nowMs);
  };

  /** The subject's entry for writing: created when new (evicting the oldest address when full), marked recent. */
  const touch = (subject: string): Entry => {
    const map = tableOf(subject);
    const found = map.get(subject);
    if (found) {
      if (map === addresses) {
        map.delete(subject);
        map.set(subject, found);
      }
      return found;
    }
    if (map === addresses && addresses.size >= maxAddresses) {
      const oldest = addresses.keys().next();
      if (!oldest.done) addresses.delete(oldest.value);
    }
    const entry: Entry = { windows: {}, expiresMs: 0 };
    map.set(subject, entry);
    return entry;
  };

  const read = (entry: Entry | undefined, w: WindowSpec, nowMs: number): number => {
    const c = entry?.windows[w.name];
    return c && c.index === windowIndex(w, nowMs) ? c.count : 0;
  };
  const peek = (subject: string, windows: readonly WindowSpec[], nowMs: number): number[] => {
    const entry = tableOf(subject).get(subject);
    return windows.map((w) => read(entry, w, nowMs));
  };

  const consume = (
    subject: string,
    windows: readonly WindowSpec[],
    nowMs: number,
    ban: BanPolicy,
  ): ConsumeOutcome => {
    maybeSweep(nowMs);
    const used = peek(subject, windows, nowMs);
    const bannedUntil = tableOf(subject).get(subject)?.bannedUntil;
    if (bannedUntil !== undefined && bannedUntil > nowMs)
      return { kind: 'banned', untilMs: bannedUntil, used };
    const entry = touch(subject);
    if (windows.some((w, i) => (used[i] ?? 0) >= w.limit)) {
      const minute = Math.floor(nowMs / MINUTE_MS);
      if (entry.rejected?.index === minute) entry.rejected.count++;
      else entry.rejected = { index: minute, count: 1 };
      entry.expiresMs = Math.max(entry.expiresMs, (minute + 1) * MINUTE_MS);
      if (ban.threshold > 0 && entry.rejected.count >= ban.threshold) {
        entry.bannedUntil = nowMs + ban.banMs;
        entry.rejected = undefined;
        entry.expiresMs = Math.max(entry.expiresMs, entry.bannedUntil);
        return { kind: 'banned', untilMs: entry.bannedUntil, used };
      }
      return { kind: 'limited', used };
    }
    return {
      kind: 'admitted',
      used: windows.map((w) => {
        const index = windowIndex(w, nowMs);
        const c = entry.windows[w.name];
        entry.expiresMs = Math.max(entry.expiresMs, (index + 1) * w.windowMs);
        if (c && c.index === index) return ++c.count;
        entry.windows[w.name] = { index, count: 1 };
        return 1;
      }),
    };
  };

  return {
    consume: async (subject, windows, nowMs, ban) => consume(subject, windows, nowMs, ban),
    peek: async (subject, windows, nowMs) => peek(subject, windows, nowMs),
    reset: async () => {
      keys.clear();
      addresses.clear();
      nextSweep = -Infinity;
    },
    close: async () => undefined,
    size: () => keys.size + addresses.size,
  };
}

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
  limitedUntil,
  orderHeld,
  windowIndex,
  type BanPolicy,
  type HeldCaller,
  type ConsumeOutcome,
  type LimiterStore,
  type WindowSpec,
} from './types';

/**
 * One subject's window counters in one flat object of small integers (some 130 bytes per address in the table,
 * key included). A counter is valid only while its index is the current window's; -1 = none.
 */
class Entry {
  minuteIndex = -1;
  minuteCount = 0;
  dayIndex = -1;
  dayCount = 0;
  /** The minute (since the epoch) by which every window of this entry has ended: the sweep drops it then. */
  expiresMin = 0;
}

/** Refusals toward a ban, and the ban: kept apart, only for subjects that have been refused. */
interface Penalty {
  rejectedIndex: number;
  rejectedCount: number;
  bannedUntil: number;
  expiresMs: number;
  /** The end of the full window that refused it last (for the inspector's list of held callers). */
  limitedUntil: number;
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

/**
 * A flat copy of `s`: a subject built by concatenation is a tree of strings (a slice of a header among them) that
 * would stay in memory as long as the table keeps it.
 */
const flat = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

/** Build an in-memory limiter store. */
export function createMemoryLimiterStore(options: MemoryLimiterOptions = {}): MemoryLimiterStore {
  const maxAddresses = Math.max(1, options.maxAddresses ?? DEFAULT_MAX_ADDRESSES);
  const keys = new Map<string, Entry>();
  /** In least-recently-used order: the first entry is the one seen longest ago. */
  const addresses = new Map<string, Entry>();
  const penalties = new Map<string, Penalty>();
  let nextSweep = -Infinity;

  const tableOf = (subject: string): Map<string, Entry> => (subject.startsWith('addr:') ? addresses : keys);

  const sweep = (nowMs: number): void => {
    const nowMin = Math.floor(nowMs / MINUTE_MS);
    for (const map of [keys, addresses]) for (const [k, e] of map) if (e.expiresMin <= nowMin) map.delete(k);
    for (const [k, p] of penalties) if (p.expiresMs <= nowMs) penalties.delete(k);
  };
  const maybeSweep = (nowMs: number): void => {
    if (nowMs < nextSweep) return;
    nextSweep = nowMs + SWEEP_INTERVAL_MS;
    sweep(nowMs);
  };

  /**
   * The subject's entry for writing (`found`: as just read): created when new (evicting the oldest address when
   * full), marked recent.
   */
  const touch = (subject: string, found: Entry | undefined): Entry => {
    const map = tableOf(subject);
    if (found) {
      if (map === addresses) {
        map.delete(subject);
        map.set(subject, found);
      }
      return found;
    }
    if (map === addresses && addresses.size >= maxAddresses) {
      const oldest = addresses.keys().next();
      if (!oldest.done) {
        addresses.delete(oldest.value);
        penalties.delete(oldest.value);
      }
    }
    const entry = new Entry();
    map.set(flat(subject), entry);
    return entry;
  };

  const read = (entry: Entry | undefined, w: WindowSpec, nowMs: number): number => {
    if (!entry) return 0;
    const index = windowIndex(w, nowMs);
    if (w.name === 'minute') return entry.minuteIndex === index ? entry.minuteCount : 0;
    return entry.dayIndex === index ? entry.dayCount : 0;
  };
  /** Count one request in `w`; the count including it. */
  const bump = (entry: Entry, w: WindowSpec, nowMs: number): number => {
    const index = windowIndex(w, nowMs);
    entry.expiresMin = Math.max(entry.expiresMin, Math.ceil(((index + 1) * w.windowMs) / MINUTE_MS));
    if (w.name === 'minute') {
      if (entry.minuteIndex !== index) {
        entry.minuteIndex = index;
        entry.minuteCount = 0;
      }
      return ++entry.minuteCount;
    }
    if (entry.dayIndex !== index) {
      entry.dayIndex = index;
      entry.dayCount = 0;
    }
    return ++entry.dayCount;
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
    // Loops, not map/some: this runs for every request, and one array is all it needs to give.
    const current = tableOf(subject).get(subject);
    const used: number[] = new Array<number>(windows.length);
    let full = false;
    for (let i = 0; i < windows.length; i++) {
      const w = windows[i] as WindowSpec;
      const n = read(current, w, nowMs);
      used[i] = n;
      if (n >= w.limit) full = true;
    }
    const penalty = penalties.size === 0 ? undefined : penalties.get(subject);
    if (penalty && penalty.bannedUntil > nowMs) return { kind: 'banned', untilMs: penalty.bannedUntil, used };
    const entry = touch(subject, current);
    if (full) {
      const minute = Math.floor(nowMs / MINUTE_MS);
      const p = penalty ?? {
        rejectedIndex: -1,
        rejectedCount: 0,
        bannedUntil: 0,
        expiresMs: 0,
        limitedUntil: 0,
      };
      p.limitedUntil = limitedUntil(windows, used, nowMs);
      p.expiresMs = Math.max(p.expiresMs, p.limitedUntil);
      if (!penalty) penalties.set(flat(subject), p);
      if (p.rejectedIndex !== minute) {
        p.rejectedIndex = minute;
        p.rejectedCount = 0;
      }
      p.rejectedCount++;
      p.expiresMs = Math.max(p.expiresMs, (minute + 1) * MINUTE_MS);
      if (ban.threshold > 0 && p.rejectedCount >= ban.threshold) {
        p.bannedUntil = nowMs + ban.banMs;
        p.rejectedIndex = -1;
        p.rejectedCount = 0;
        p.expiresMs = Math.max(p.expiresMs, p.bannedUntil);
        return { kind: 'banned', untilMs: p.bannedUntil, used };
      }
      return { kind: 'limited', used };
    }
    for (let i = 0; i < windows.length; i++) used[i] = bump(entry, windows[i] as WindowSpec, nowMs);
    return { kind: 'admitted', used };
  };

  // Penalties exist only for subjects that were refused, and go with their address (bounded by maxAddresses).
  const held = (nowMs: number, max: number) => {
    const out: HeldCaller[] = [];
    for (const [subject, p] of penalties) {
      if (p.bannedUntil > nowMs) out.push({ subject, state: 'banned', untilMs: p.bannedUntil });
      else if (p.limitedUntil > nowMs) out.push({ subject, state: 'limited', untilMs: p.limitedUntil });
    }
    return orderHeld(out, max);
  };
  const lift = (subject: string, nowMs: number): boolean => {
    const p = penalties.get(subject);
    const was = !!p && (p.bannedUntil > nowMs || p.limitedUntil > nowMs);
    penalties.delete(subject);
    tableOf(subject).delete(subject);
    return was;
  };

  return {
    // Answered at once, not through a promise: the rate-limit stage then awaits nothing.
    consume,
    peek,
    held,
    lift,
    reset: async () => {
      keys.clear();
      addresses.clear();
      penalties.clear();
      nextSweep = -Infinity;
    },
    close: async () => undefined,
    size: () => keys.size + addresses.size,
  };
}

/**
 * The two pieces of state the mock keeps, as interfaces: the request pipeline only knows these,
 * never which implementation (memory for a laptop, Redis for a shared deployment) is behind them.
 */
import type { Category, NewCategory } from '../../../spec/types';

/** Categories in creation order, with server-assigned unique int64 ids. */
export interface CategoryStore {
  /** Store a new category and return it with its new id. Concurrent calls never lose or duplicate a record. */
  create(input: NewCategory): Promise<Category>;
  /** Every stored category, in creation order. */
  list(): Promise<readonly Category[]>;
  /** A number that changes whenever the list changes, so a serialised list can be reused until then. */
  version(): Promise<number>;
  /** Drop everything and store `seed` (ids restart at 1). */
  reset(seed: readonly NewCategory[]): Promise<void>;
  close(): Promise<void>;
}

/** One fixed rate-limit window: `limit` requests per `windowMs`, aligned to the Unix epoch. */
export interface WindowSpec {
  name: 'minute' | 'day';
  limit: number;
  windowMs: number;
}

/** When repeated limited requests turn into a temporary ban. */
export interface BanPolicy {
  /** Rejected requests within one minute window that trigger a ban; 0 disables bans. */
  threshold: number;
  banMs: number;
}

export type ConsumeOutcome =
  /** `used[i]` is the count of windows[i] including this request (admitted) or as it stands (limited). */
  { kind: 'admitted' | 'limited'; used: number[] } | { kind: 'banned'; untilMs: number; used: number[] };

/** Counters behind the rate limiter. Every call is atomic for a subject, also across processes. */
export interface LimiterStore {
  /**
   * Count one request of `subject`: unless it is banned or any window is full, increment every window.
   * A rejected request is counted toward the ban instead and starts one when `ban.threshold` is reached.
   */
  consume(
    subject: string,
    windows: readonly WindowSpec[],
    nowMs: number,
    ban: BanPolicy,
  ): Promise<ConsumeOutcome>;
  /** Current counts without counting a request (for the inspector and tests). */
  peek(subject: string, windows: readonly WindowSpec[], nowMs: number): Promise<number[]>;
  /** Forget every counter and ban. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Index of the fixed window holding `nowMs`; windows are aligned to the epoch (days to UTC midnight). */
export function windowIndex(window: WindowSpec, nowMs: number): number {
  return Math.floor(nowMs / window.windowMs);
}

/** A store's backend cannot be reached right now; the pipeline answers 503 and the store recovers by itself. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

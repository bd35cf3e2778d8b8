/**
 * The two pieces of state the mock keeps, as interfaces: the request pipeline only knows these,
 * never which implementation (memory for a laptop, Redis for a shared deployment) is behind them.
 */
import type { IdForm } from '../../../spec/id-form';

/**
 * A store's answer: the value itself from a store in memory, a promise from one across the network. Callers
 * await only a promise, so a request served from memory never waits a microtask for a value it already has.
 */
export type MaybePromise<T> = T | Promise<T>;

/** Pure: is this answer still to come (a promise, or any thenable), rather than the value itself? */
export const isPending = <T>(answer: MaybePromise<T>): answer is Promise<T> =>
  typeof (answer as { then?: unknown } | null | undefined)?.then === 'function';

/** The same store, every call answering with a promise (a store across the network, such as Redis). */
export type AsyncStore<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : S[K];
};

/**
 * `then(value)` now when the answer is there, or once it comes: a (native) promise only when the store gave a
 * promise or thenable.
 */
export function whenReady<T, R>(
  answer: MaybePromise<T>,
  then: (value: T) => MaybePromise<R>,
): MaybePromise<R> {
  return isPending(answer) ? Promise.resolve(answer).then(then) : then(answer);
}

/** A stored record: a JSON object. */
export type JsonObject = Record<string, unknown>;

/** What a store needs to know of a resource: its name and how its ids are made. */
export interface StoreResource {
  name: string;
  /** The id property; a resource without one keeps its records by an internal sequence number. */
  idField?: string;
  idType: 'integer' | 'string';
  /** String ids in the document's form (a prefix and a counter or a random part); absent: UUIDs. */
  idForm?: IdForm;
}

/** Seed records, keyed by resource name: `{ "books": [ … ] }`. */
export type SeedData = Readonly<Record<string, readonly JsonObject[]>>;

export type CreateOutcome =
  | { ok: true; record: JsonObject }
  /**
   * `duplicate`: a client-chosen id is taken; `full`: the resource holds its maximum of records; `ids`: every
   * draw of a random id in the document's form was taken (a small space such as `^[0-9a-f]{4}$`).
   */
  | { ok: false; reason: 'duplicate' | 'full' | 'ids' };

/**
 * Records of every resource, each in creation order, with server-assigned ids (integers ascending from 1, or
 * UUIDs). Every call is atomic: concurrent creates, replaces and deletes never lose or duplicate a record.
 * Ids are compared as strings (`"7"` addresses the record whose integer id is 7).
 */
export interface RecordStore {
  /** Store `record`, assigning the id (or using the record's own id, when the resource lets the client send one). */
  create(resource: StoreResource, record: JsonObject, maxRecords: number): MaybePromise<CreateOutcome>;
  /** Every record of the resource, in creation order. */
  list(resource: string): MaybePromise<readonly JsonObject[]>;
  /**
   * The records of `resource` and of every bucket under it (`gadgets/a`, `gadgets/b`: one per parent), for a
   * list of every parent's items; a store without it lists `resource` alone.
   */
  listEvery?(resource: string): MaybePromise<readonly JsonObject[]>;
  get(resource: string, id: string): MaybePromise<JsonObject | undefined>;
  /** Replace the record with this id (its position and id kept); undefined when there is none. */
  replace(resource: StoreResource, id: string, record: JsonObject): MaybePromise<JsonObject | undefined>;
  /** Remove and return the record with this id; undefined when there is none. */
  remove(resource: string, id: string): MaybePromise<JsonObject | undefined>;
  /** A number that changes whenever the resource's records change (so a serialised list can be reused). */
  version(resource: string): MaybePromise<number>;
  /** Drop every record of every resource and store `seed` (ids restart at 1). */
  reset(seed: SeedData, resources: readonly StoreResource[]): Promise<void>;
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
  ): MaybePromise<ConsumeOutcome>;
  /** Current counts without counting a request (for the inspector and tests). */
  peek(subject: string, windows: readonly WindowSpec[], nowMs: number): MaybePromise<number[]>;
  /**
   * The callers held back now, for the inspector and `GET /_mock/limits`: banned ones first, then those refused
   * because a window is full, at most `max` of them (`truncated` says when there were more).
   */
  held(nowMs: number, max: number): MaybePromise<HeldCallers>;
  /**
   * Lift one subject: its ban, its refusals toward a ban and its current window counts are forgotten, so it may
   * send again at once (the others keep theirs). Whether it was held (banned or limited) at `nowMs`.
   */
  lift(subject: string, nowMs: number): MaybePromise<boolean>;
  /** Forget every counter and ban. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** A caller the limiter holds back: banned, or limited (a full window) until `untilMs`. */
export interface HeldCaller {
  subject: string;
  state: 'banned' | 'limited';
  /** When the ban ends, or when the full window that refuses it ends. */
  untilMs: number;
}

export interface HeldCallers {
  callers: HeldCaller[];
  /** More callers were held than `max`. */
  truncated: boolean;
}

/** Most callers a store keeps track of as held (beyond it, those whose hold ends soonest are forgotten). */
export const MAX_HELD_TRACKED = 10_000;

/** Pure: banned before limited, then the hold ending last first; at most `max`. */
export function orderHeld(callers: HeldCaller[], max: number): HeldCallers {
  const sorted = [...callers].sort(
    (a, b) =>
      (a.state === b.state ? 0 : a.state === 'banned' ? -1 : 1) ||
      b.untilMs - a.untilMs ||
      a.subject.localeCompare(b.subject),
  );
  return { callers: sorted.slice(0, Math.max(0, max)), truncated: sorted.length > max };
}

/** Pure: the end of the latest window that `used` fills (the caller is limited until then), or 0. */
export function limitedUntil(windows: readonly WindowSpec[], used: readonly number[], nowMs: number): number {
  let until = 0;
  windows.forEach((w, i) => {
    if ((used[i] ?? 0) >= w.limit) until = Math.max(until, (windowIndex(w, nowMs) + 1) * w.windowMs);
  });
  return until;
}

/** Index of the fixed window holding `nowMs`; windows are aligned to the epoch (days to UTC midnight). */
export function windowIndex(window: WindowSpec, nowMs: number): number {
  return Math.floor(nowMs / window.windowMs);
}

/** A store's backend cannot be reached right now; the pipeline answers 503 and the store recovers by itself. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  /** The caller's counts per window as last known before the outage (a limiter store may know them). */
  readonly lastUsed?: readonly number[];
  constructor(message: string, lastUsed?: readonly number[]) {
    super(message);
    if (lastUsed) this.lastUsed = lastUsed;
  }
}

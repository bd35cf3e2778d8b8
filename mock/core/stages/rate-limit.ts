/**
 * Stage 2: count the request against the caller's minute and day windows (§8). Runs before routing and auth
 * so that every response, 401 and 404 included, carries X-RateLimit-*.
 */
import { serializeItem, serializeList, type Item } from 'structured-headers';
import { keyBanned, rateLimited, serviceUnavailable } from '../errors';
import type { CallerCtx, CountedCtx, Deps, Outcome, Reply, Stage } from '../context';
import type { MockConfig } from '../settings';
import {
  isPending,
  StoreUnavailableError,
  windowIndex,
  type BanPolicy,
  type ConsumeOutcome,
  type MaybePromise,
  type WindowSpec,
} from '../stores/types';

export interface LimitDecision {
  headers: Record<string, string>;
  /** Set when the request is refused: 429 (limit or ban). */
  reject?: Reply;
}

const resetMs = (w: WindowSpec, nowMs: number): number => (windowIndex(w, nowMs) + 1) * w.windowMs;
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * Pure: the headers describe the window with the fewest requests remaining (the minute on a tie);
 * `Remaining` counts this request. Refused: Retry-After until the blocking window (or the ban) ends.
 */
export function decideLimit(
  windows: readonly WindowSpec[],
  outcome: ConsumeOutcome,
  nowMs: number,
  ietfFields = true,
): LimitDecision {
  // The binding window: the fewest remaining, the first of them on a tie (no array built for it).
  let bind = 0;
  let least = Infinity;
  for (let i = 0; i < windows.length; i++) {
    const left = Math.max(0, (windows[i] as WindowSpec).limit - (outcome.used[i] ?? 0));
    if (left < least) {
      bind = i;
      least = left;
    }
  }
  const binding = windows[bind] as WindowSpec;
  if (outcome.kind === 'admitted') {
    return {
      headers: limitHeaders(binding.limit, least, resetMs(binding, nowMs), windows, bind, nowMs, ietfFields),
    };
  }
  if (outcome.kind === 'banned') {
    const retry = seconds(outcome.untilMs - nowMs);
    return {
      headers: limitHeaders(binding.limit, 0, outcome.untilMs, windows, bind, nowMs, ietfFields),
      reject: keyBanned(retry),
    };
  }
  // Limited: every full window blocks; the client must wait for the last of them to reset.
  const remaining = windows.map((w, i) => Math.max(0, w.limit - (outcome.used[i] ?? 0)));
  let block = -1;
  windows.forEach((w, i) => {
    if (
      (remaining[i] ?? 0) === 0 &&
      (block === -1 || resetMs(w, nowMs) > resetMs(windows[block] as WindowSpec, nowMs))
    )
      block = i;
  });
  const which = block === -1 ? bind : block;
  const blocking = windows[which] as WindowSpec;
  const reset = resetMs(blocking, nowMs);
  return {
    headers: limitHeaders(blocking.limit, 0, reset, windows, which, nowMs, ietfFields),
    reject: rateLimited(seconds(reset - nowMs), blocking.name),
  };
}

/**
 * §8's X-RateLimit-* of the window `windows[which]`; with `ietfFields`, the IETF `RateLimit` and `RateLimit-Policy`
 * fields too. One object literal of a fixed shape: this runs for every request.
 */
function limitHeaders(
  limit: number,
  remaining: number,
  resetAtMs: number,
  windows?: readonly WindowSpec[],
  which = 0,
  nowMs = 0,
  ietfFields = false,
): Record<string, string> {
  const window = windows?.[which];
  if (!window || !ietfFields)
    return {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(Math.ceil(resetAtMs / 1000)),
    };
  const texts = windowTexts(window, limit, resetAtMs);
  return {
    'X-RateLimit-Limit': texts.limit,
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': texts.reset,
    RateLimit: rateLimitField(window.name, remaining, seconds(resetAtMs - nowMs)),
    'RateLimit-Policy': rateLimitPolicyField(windows),
  };
}

/** A window's header texts that stay the same from one request to the next: its limit, and its reset until it moves. */
interface WindowTexts {
  limitOf: number;
  limit: string;
  resetAtMs: number;
  reset: string;
}
const textsByWindow = new WeakMap<WindowSpec, WindowTexts>();

/** The texts of `window` for `limit` and `resetAtMs`: formatted when they change, not per request. */
function windowTexts(window: WindowSpec, limit: number, resetAtMs: number): WindowTexts {
  let texts = textsByWindow.get(window);
  if (!texts) {
    texts = { limitOf: limit, limit: String(limit), resetAtMs, reset: String(Math.ceil(resetAtMs / 1000)) };
    textsByWindow.set(window, texts);
  }
  if (texts.limitOf !== limit) {
    texts.limitOf = limit;
    texts.limit = String(limit);
  }
  if (texts.resetAtMs !== resetAtMs) {
    texts.resetAtMs = resetAtMs;
    texts.reset = String(Math.ceil(resetAtMs / 1000));
  }
  return texts;
}

/** RFC 9651 §3.3.1: the largest magnitude of an Integer. */
const MAX_SF_INTEGER = 999_999_999_999_999;
const sfInteger = (n: number): boolean => Number.isInteger(n) && Math.abs(n) <= MAX_SF_INTEGER;
/** `"minute"`: each policy's name as an sf-string, serialised once (policies are the windows' names). */
const policyNames = new Map<string, string>();

/**
 * draft-ietf-httpapi-ratelimit-headers: `RateLimit: "minute";r=59;t=42` (the binding policy, remaining
 * quota, seconds until it resets), an RFC 9651 List of one Item. The name is serialised by structured-headers
 * once per policy; the two integers are appended as their digits (what serializeList writes for them), so no
 * List is built per response. Anything that is not an sf-integer goes through serializeList, which refuses it.
 */
export function rateLimitField(policy: string, remaining: number, resetS: number): string {
  if (!sfInteger(remaining) || !sfInteger(resetS))
    return serializeList([
      [
        policy,
        new Map([
          ['r', remaining],
          ['t', resetS],
        ]),
      ],
    ]);
  let name = policyNames.get(policy);
  if (name === undefined) policyNames.set(policy, (name = serializeItem(policy, new Map())));
  return `${name};r=${remaining};t=${resetS}`;
}

const policies = new WeakMap<readonly WindowSpec[], string>();

/** `RateLimit-Policy: "minute";q=60;w=60, "day";q=1000;w=86400`: one item per window, built once per plan. */
export function rateLimitPolicyField(windows: readonly WindowSpec[]): string {
  const cached = policies.get(windows);
  if (cached !== undefined) return cached;
  const items: Item[] = windows.map((w) => [
    w.name,
    new Map([
      ['q', w.limit],
      ['w', w.windowMs / 1000],
    ]),
  ]);
  const field = serializeList(items);
  policies.set(windows, field);
  return field;
}

const banPolicies = new WeakMap<MockConfig, BanPolicy>();

/** The ban policy of a config (frozen), built once. */
function banPolicy(config: MockConfig): BanPolicy {
  let ban = banPolicies.get(config);
  if (!ban)
    banPolicies.set(config, (ban = { threshold: config.banThreshold, banMs: config.banSeconds * 1000 }));
  return ban;
}

/**
 * The store could not count (503): the minute window's limit with what remained at the last count this
 * process knows (the whole limit when it knows none). Never 0 unless it was 0: an outage is not a spent quota.
 */
function unavailable(err: unknown, ctx: CallerCtx, now: number): Outcome<CountedCtx> {
  if (!(err instanceof StoreUnavailableError)) throw err;
  const minute = ctx.identity.windows[0] as WindowSpec;
  const left = Math.max(0, minute.limit - (err.lastUsed?.[0] ?? 0));
  ctx.limitHeaders = limitHeaders(minute.limit, left, resetMs(minute, now));
  return { reply: serviceUnavailable(2), ctx };
}

function decided(ctx: CallerCtx, deps: Deps, outcome: ConsumeOutcome, now: number): Outcome<CountedCtx> {
  const decision = decideLimit(ctx.identity.windows, outcome, now, deps.config.rateLimitFields);
  const counted = ctx as CountedCtx;
  counted.limitHeaders = decision.headers;
  return decision.reject ? { reply: decision.reject, ctx: counted } : counted;
}

/** Synchronous with a store in memory; a store across the network is awaited. */
export const rateLimit: Stage<CallerCtx, CountedCtx> = function rateLimit(ctx, deps) {
  const { identity } = ctx;
  const now = deps.clock.now();
  let counted: MaybePromise<ConsumeOutcome>;
  try {
    counted = deps.limiter.consume(identity.subject, identity.windows, now, banPolicy(deps.config));
  } catch (err) {
    return unavailable(err, ctx, now);
  }
  if (!isPending(counted)) return decided(ctx, deps, counted, now);
  return Promise.resolve(counted).then(
    (outcome) => decided(ctx, deps, outcome, now),
    (err: unknown) => unavailable(err, ctx, now),
  );
};

/**
 * Pacing decisions as pure functions of what the rate-limit headers said (§8), so the runner stays
 * under the limit on a shared server and never hammers after a 429.
 */

import { bindingLimit, retryAfterMs } from '../../spec/http/ratelimit-fields';

export { retryAfterMs };

export interface PaceState {
  remaining?: number;
  /** X-RateLimit-Reset, Unix seconds. */
  resetS?: number;
  /** No request for this identity before this time (after an unexpected 429). */
  blockedUntilMs?: number;
  /** Unexpected 429s seen so far; drives the exponential back-off when Retry-After is absent. */
  strikes: number;
  /** Which fields the budget came from, for the wait message. */
  source?: 'RateLimit' | 'X-RateLimit';
}

export const INITIAL_PACE: PaceState = { strikes: 0 };

function intHeader(headers: Record<string, string>, name: string): number | undefined {
  const raw = headers[name.toLowerCase()];
  return raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
}

/** The state after a response; an unexpected 429 blocks the identity for Retry-After (or a back-off). */
export function observeResponse(
  state: PaceState,
  status: number,
  headers: Record<string, string>,
  nowMs: number,
  expects429: boolean,
): PaceState {
  // The IETF RateLimit field wins when present (r remaining, t seconds to the reset); X-RateLimit-* otherwise.
  const ietf = bindingLimit(headers.ratelimit);
  const next: PaceState = ietf
    ? {
        ...state,
        remaining: ietf.r,
        resetS: ietf.t !== undefined ? Math.ceil(nowMs / 1000 + ietf.t) : state.resetS,
        source: 'RateLimit',
      }
    : {
        ...state,
        remaining: intHeader(headers, 'X-RateLimit-Remaining') ?? state.remaining,
        resetS: intHeader(headers, 'X-RateLimit-Reset') ?? state.resetS,
        source: state.source,
      };
  if (status !== 429 || expects429) return next;
  // §8.3: clients back off exponentially; without Retry-After we wait 1 s, 2 s, 4 s ...
  const waitMs = retryAfterMs(headers['retry-after'], nowMs) ?? 1000 * 2 ** state.strikes;
  return { ...next, strikes: state.strikes + 1, blockedUntilMs: nowMs + waitMs };
}

/** How long to wait before the next request, keeping `reserve` requests of the window unused. */
export function decideWait(
  state: PaceState,
  nowMs: number,
  reserve: number,
): { waitMs: number; why: string } {
  if (state.blockedUntilMs !== undefined && state.blockedUntilMs > nowMs)
    return { waitMs: state.blockedUntilMs - nowMs, why: 'Retry-After of an earlier 429' };
  if (state.remaining !== undefined && state.remaining <= reserve && state.resetS !== undefined) {
    const waitMs = state.resetS * 1000 - nowMs + 250;
    if (waitMs > 0) {
      const field = state.source === 'RateLimit' ? 'RateLimit r' : 'X-RateLimit-Remaining';
      return { waitMs, why: `${field} is ${state.remaining}` };
    }
  }
  return { waitMs: 0, why: '' };
}

/** A request is about to go out: count it against the remaining budget. */
export function noteSent(state: PaceState): PaceState {
  return state.remaining === undefined ? state : { ...state, remaining: state.remaining - 1 };
}

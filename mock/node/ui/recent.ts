/**
 * The inspector's memory of recent requests: a fixed-size ring, filled by wrapping the request logger so the
 * /v1 hot path does nothing new beyond one array write. Entries hold the caller's label, never the key.
 */
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../core/log';

export interface RecentRequest {
  /** Milliseconds since the Unix epoch, when the response was written. */
  t: number;
  method: string;
  path: string;
  status: number;
  ms: number;
  /** `free`, `pro`, … or `anonymous`. */
  plan: string;
  /** The masked form: plan and digest prefix (`free:4a55ea81`) or the client address. */
  caller: string;
  /** Set when the answer was injected (`delay 200ms`, `fault 503`, `reset`): --latency, --faults, Prefer: delay. */
  injected?: string;
}

export interface RecentRequests {
  push(entry: RecentRequest): void;
  /** Newest first. */
  list(): RecentRequest[];
}

/** A ring of the last `capacity` requests. */
export function createRecentRequests(capacity = 50): RecentRequests {
  const ring: RecentRequest[] = [];
  let next = 0;
  return {
    push(entry) {
      ring[next] = entry;
      next = (next + 1) % capacity;
    },
    list() {
      const ordered = [...ring.slice(next), ...ring.slice(0, next)];
      return ordered.reverse();
    },
  };
}

/** Pure: the plan part of a caller label (`pro:1a2b3c4d` -> `pro`; `anonymous@…` -> `anonymous`). */
export function planOf(caller: string): string {
  const colon = caller.indexOf(':');
  return colon > 0 && !caller.startsWith('anonymous') ? caller.slice(0, colon) : 'anonymous';
}

/**
 * Milliseconds since the Unix epoch, whole: the process's time origin plus its monotonic clock, which Node reads
 * without a call into the runtime (`Date.now()` is one, per request while the inspector is on).
 */
const wallClockMs = (): number => Math.floor(performance.timeOrigin + performance.now());

/** A logger that also records each request in `recent`, except those `skip` says are the UI's own. */
export function recordingLogger(
  log: Logger,
  recent: RecentRequests,
  skip: (path: string) => boolean,
  now: () => number = wallClockMs,
): Logger {
  // Most requests come from the caller before them (one key's label is one string): its plan is kept, not cut anew.
  let lastCaller = '';
  let lastPlan = 'anonymous';
  return {
    requests: true,
    request(entry) {
      if (!skip(entry.path)) {
        // A path may be as long as the header limit allows: the ring keeps its first 300 characters.
        const path = entry.path.length > 300 ? `${entry.path.slice(0, 300)}…` : entry.path;
        // One literal of fixed shape (no spread): this runs for every request while the inspector is on.
        const row: RecentRequest = {
          t: now(),
          method: entry.method,
          path,
          status: entry.status,
          ms: entry.ms,
          plan: entry.caller === lastCaller ? lastPlan : (lastPlan = planOf((lastCaller = entry.caller))),
          caller: entry.caller,
        };
        if (entry.injected !== undefined) row.injected = entry.injected;
        recent.push(row);
      }
      log.request(entry);
    },
    event: (level, msg, fields) => log.event(level, msg, fields),
  };
}

/** The proxy's newest exchanges with their verdicts, for the inspector: bounded, paths without their query. */
import type { Problem } from './judge/judge-request';

/** One judged exchange as the inspector shows it. */
export interface LoggedExchange {
  at: string;
  method: string;
  /** The path only: a query may carry a credential. */
  path: string;
  status: number;
  ms: number;
  violations: Array<Pick<Problem, 'side' | 'rule' | 'message'>>;
}

/** An entry as kept: its time a number, formatted only when the inspector asks (not once per request). */
type Kept = Omit<LoggedExchange, 'at'> & { atMs: number };

/** A ring of the newest `capacity` exchanges (the oldest overwritten in place: nothing shifted per request). */
export function createExchangeLog(capacity = 200, now: () => number = Date.now) {
  const entries: Kept[] = [];
  let total = 0;
  /** Oldest first. */
  const inOrder = (): Kept[] => {
    if (entries.length < capacity) return entries;
    const next = total % capacity;
    return [...entries.slice(next), ...entries.slice(0, next)];
  };
  return {
    /** Log one exchange; the entry is returned so a late finding of the same exchange can be added to it. */
    add(
      method: string,
      path: string,
      status: number,
      startedAt: number,
      problems: readonly Problem[],
    ): Pick<LoggedExchange, 'status' | 'violations'> {
      const violations =
        problems.length === 0 ? [] : problems.map(({ side, rule, message }) => ({ side, rule, message }));
      const atMs = now();
      const entry: Kept = { atMs, method, path, status, ms: atMs - startedAt, violations };
      if (entries.length < capacity) entries.push(entry);
      else entries[total % capacity] = entry;
      total++;
      return entry;
    },
    snapshot: () => ({
      total,
      exchanges: inOrder().map(({ atMs, method, path, status, ms, violations }): LoggedExchange => ({
        at: new Date(atMs).toISOString(),
        method,
        path,
        status,
        ms,
        violations,
      })),
    }),
  };
}

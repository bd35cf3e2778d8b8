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

/** A ring of the newest `capacity` exchanges. */
export function createExchangeLog(capacity = 200, now: () => number = Date.now) {
  const entries: LoggedExchange[] = [];
  let total = 0;
  return {
    /** Log one exchange; the entry is returned so a late finding of the same exchange can be added to it. */
    add(
      method: string,
      path: string,
      status: number,
      startedAt: number,
      problems: readonly Problem[],
    ): LoggedExchange {
      total++;
      const violations = problems.map(({ side, rule, message }) => ({ side, rule, message }));
      const at = now();
      const entry = { at: new Date(at).toISOString(), method, path, status, ms: at - startedAt, violations };
      entries.push(entry);
      if (entries.length > capacity) entries.shift();
      return entry;
    },
    snapshot: () => ({ total, exchanges: [...entries] }),
  };
}

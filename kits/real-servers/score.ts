/**
 * Pure: a run's failures against a server's hand-checked list. Each real deviation (found by hand with curl) is
 * found when a failure matches it; a failure no deviation explains is a false verdict; coverage is the share of
 * documented (operation, status) pairs observed, 5xx aside (a healthy server never sends them on purpose).
 */
import type { CoverageEntry } from '../../spec/report/types';

/** One real deviation of a server from its document, as the hand-checked list states it. */
export interface Deviation {
  id: string;
  what: string;
  /** The rule that should report it (a `*` glob: `body.*.missing-*`). */
  rule: string;
  method?: string;
  /** A regular expression on the request's path. */
  path?: string;
  status?: number;
  /** A regular expression on the verdict's problem text (which parameter, which field). */
  problem?: string;
}

/** A server's hand-checked list (`<name>.deviations.yaml`). */
export interface DeviationList {
  server: string;
  document: string;
  checked: string;
  deviations: Deviation[];
  /** Verdicts that would be false here (what the document does not say), kept for the reader and the test. */
  notDeviations: Array<Omit<Deviation, 'id'>>;
}

/** One failing verdict of a run: which rule, on which request, with which answer. */
export interface Failure {
  rule: string;
  method: string;
  path: string;
  status: number | undefined;
  problem: string;
}

/** What the runs sent, seen exchange by exchange: the operations answered, and each (operation, 5xx) pair. */
export interface Traffic {
  called: Set<string>;
  fives: Set<string>;
}

export interface Score {
  found: string[];
  missed: string[];
  falseVerdicts: Failure[];
  /**
   * Documented pairs, 5xx aside: observed of documented; and of those a client following the document can reach
   * (no 401 or 403 where an operation declares no security), `reached` of `reachable`.
   */
  pairs: { observed: number; documented: number; reached: number; reachable: number };
  /** Operations answered at least once, of those the document has; `uncalled` names the others. */
  operations: { called: number; total: number; uncalled: string[] };
  /** Distinct (operation, 5xx status) pairs seen: what fuzzing studies count as faults. */
  distinct5xx: number;
}

const glob = (pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/** Whether a failure is the deviation (or known non-deviation) `d`. */
export function matches(
  d: Pick<Deviation, 'rule' | 'method' | 'path' | 'status' | 'problem'>,
  f: Failure,
): boolean {
  if (!glob(d.rule).test(f.rule)) return false;
  if (d.method && d.method.toUpperCase() !== f.method.toUpperCase()) return false;
  if (d.path && !new RegExp(d.path).test(f.path)) return false;
  if (d.problem && !new RegExp(d.problem).test(f.problem)) return false;
  return d.status === undefined || d.status === f.status;
}

/** Score the failures and coverage of a server's runs against its list. */
export function scoreRun(
  list: DeviationList,
  failures: readonly Failure[],
  coverage: readonly CoverageEntry[],
  traffic: Traffic,
  inReach: (c: CoverageEntry) => boolean = () => true,
): Score {
  const found = list.deviations.filter((d) => failures.some((f) => matches(d, f))).map((d) => d.id);
  const missed = list.deviations.map((d) => d.id).filter((id) => !found.includes(id));
  const falseVerdicts = failures.filter((f) => !list.deviations.some((d) => matches(d, f)));
  const healthy = coverage.filter((c) => !/^5/.test(c.status));
  const reachable = healthy.filter(inReach);
  const ops = new Set(coverage.map((c) => c.operationId));
  return {
    found,
    missed,
    falseVerdicts,
    pairs: {
      observed: healthy.filter((c) => c.observed).length,
      documented: healthy.length,
      reached: reachable.filter((c) => c.observed).length,
      reachable: reachable.length,
    },
    operations: {
      called: [...ops].filter((id) => traffic.called.has(id)).length,
      total: ops.size,
      uncalled: [...ops].filter((id) => !traffic.called.has(id)),
    },
    distinct5xx: traffic.fives.size,
  };
}

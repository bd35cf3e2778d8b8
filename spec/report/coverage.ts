/** Which documented (operation, status) pairs the run observed, so QA sees what was never exercised. */
import type { LoadedSpec } from '../load';
import type { CoverageEntry, Exchange } from './types';

/**
 * One entry per documented response of every operation, with how many exchanges observed it; `counts`
 * (`operationId status` -> exchanges) replaces counting `exchanges` where a caller keeps only one per pair.
 */
export function computeCoverage(
  spec: LoadedSpec,
  exchanges: readonly Exchange[],
  counts?: ReadonlyMap<string, number>,
): CoverageEntry[] {
  const seen = new Map<string, number>();
  for (const e of exchanges)
    if (e.operationId && e.response) {
      const key = `${e.operationId} ${e.response.status}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  return spec.operations.flatMap((op) =>
    [...op.responses.keys()].map((status) => {
      const key = `${op.operationId} ${status}`;
      const count = counts?.get(key) ?? seen.get(key) ?? 0;
      return {
        operationId: op.operationId,
        method: op.method.toUpperCase(),
        path: op.path,
        status,
        observed: count > 0,
        count,
      };
    }),
  );
}

/** Observed pairs, all pairs, and the share observed in percent (100 when the document documents none). */
export function coverageSummary(entries: readonly CoverageEntry[]): {
  observed: number;
  total: number;
  percent: number;
} {
  const observed = entries.filter((e) => e.observed).length;
  const total = entries.length;
  return { observed, total, percent: total === 0 ? 100 : (observed / total) * 100 };
}

/** The one line every command prints about coverage. */
export function coverageLine(entries: readonly CoverageEntry[]): string {
  const { observed, total, percent } = coverageSummary(entries);
  return `coverage: ${observed}/${total} documented (operation, status) pairs observed (${percent.toFixed(1)}%)`;
}

/** One operation's documented statuses, those observed and those not. */
export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  observed: string[];
  missing: string[];
}

/** The entries grouped by operation, in the document's order. */
export function coverageByOperation(entries: readonly CoverageEntry[]): OperationCoverage[] {
  const byId = new Map<string, OperationCoverage>();
  for (const e of entries) {
    let op = byId.get(e.operationId);
    if (!op) byId.set(e.operationId, (op = { ...e, observed: [], missing: [] }));
    (e.observed ? op.observed : op.missing).push(e.status);
  }
  return [...byId.values()].map(({ operationId, method, path, observed, missing }) => ({
    operationId,
    method,
    path,
    observed,
    missing,
  }));
}

/** How many operations a terminal report lists by name before it counts the rest. */
export const COVERAGE_LINES = 25;

/**
 * The coverage gaps for a terminal: one line per operation with statuses not observed, at most `limit` of them,
 * then a count of the rest (the JSON and HTML reports list every pair).
 */
export function coverageGapLines(entries: readonly CoverageEntry[], limit = COVERAGE_LINES): string[] {
  const gaps = coverageByOperation(entries).filter((o) => o.missing.length > 0);
  const reasons = new Map(entries.map((e) => [`${e.operationId} ${e.status}`, e.reason]));
  // Each status with its reason where the run gave one (the runner's; a coverage file has none).
  const why = (o: OperationCoverage, status: string) => {
    const reason = reasons.get(`${o.operationId} ${status}`);
    return reason ? `\n      ${reason.startsWith(`${status}:`) ? reason : `${status}: ${reason}`}` : '';
  };
  const lines = gaps
    .slice(0, limit)
    .map(
      (o) =>
        `  not observed: ${o.operationId} ${o.method} ${o.path} ${o.missing.join(', ')}${o.missing.map((s) => why(o, s)).join('')}`,
    );
  const rest = gaps.slice(limit);
  if (rest.length > 0) {
    const pairs = rest.reduce((n, o) => n + o.missing.length, 0);
    lines.push(
      `  … and ${rest.length} more operations with ${pairs} statuses not observed (every pair: the JSON and HTML reports)`,
    );
  }
  return lines;
}

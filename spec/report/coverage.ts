/** Which documented (operation, status) pairs the run observed, so QA sees what was never exercised. */
import type { LoadedSpec } from '../load';
import type { CoverageEntry, Exchange } from './types';

/** One entry per documented response of every operation. */
export function computeCoverage(spec: LoadedSpec, exchanges: readonly Exchange[]): CoverageEntry[] {
  const seen = new Set(
    exchanges.filter((e) => e.operationId && e.response).map((e) => `${e.operationId} ${e.response?.status}`),
  );
  return spec.operations.flatMap((op) =>
    [...op.responses.keys()].map((status) => ({
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      status,
      observed: seen.has(`${op.operationId} ${status}`),
    })),
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

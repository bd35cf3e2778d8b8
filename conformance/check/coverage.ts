/** Which documented (operation, status) pairs the run observed, so QA sees what was never exercised. */
import type { LoadedSpec } from '../../spec/load';
import type { CoverageEntry, Exchange } from '../types';

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

/**
 * One coverage file for every command (`--report coverage=FILE` of the runner, the proxy and `--judge-har`):
 * the documented (operation, status) pairs with how many exchanges each saw, and the union of several such
 * files, which `--coverage FILE…` gates on with `--min-coverage`. A pair is keyed by method, path template
 * (parameter names aside) and status, so files written against two versions of a document still merge.
 */
import { isObject } from '../json';
import type { CoverageEntry, Report } from './types';

export const COVERAGE_FORMAT = 'petstore-coverage/1';

/** One documented pair and the exchanges that observed it (0: never exercised). */
export interface CoveragePair {
  operationId: string;
  method: string;
  path: string;
  status: string;
  count: number;
}

/** The file: its format, what wrote it, the pairs. */
export interface CoverageFile {
  format: typeof COVERAGE_FORMAT;
  /** The run's target, the proxy's upstream, or the HAR judged. */
  source: string;
  generatedAt: string;
  pairs: CoveragePair[];
}

/** The pairs of a report's coverage as a coverage file. */
export function toCoverageFile(report: Pick<Report, 'target' | 'coverage'>, now = new Date()): CoverageFile {
  return {
    format: COVERAGE_FORMAT,
    source: report.target,
    generatedAt: now.toISOString(),
    pairs: report.coverage.map((e) => ({
      operationId: e.operationId,
      method: e.method,
      path: e.path,
      status: e.status,
      count: e.count ?? (e.observed ? 1 : 0),
    })),
  };
}

/** The `coverage` reporter. */
export function formatCoverage(report: Report): string {
  return `${JSON.stringify(toCoverageFile(report), null, 2)}\n`;
}

/** A parsed coverage file, or what is wrong with it. */
export function parseCoverageFile(
  value: unknown,
): { ok: true; file: CoverageFile } | { ok: false; error: string } {
  if (!isObject(value) || value.format !== COVERAGE_FORMAT)
    return {
      ok: false,
      error: `not a coverage file: "format" is not "${COVERAGE_FORMAT}" (write one with --report coverage=FILE)`,
    };
  if (!Array.isArray(value.pairs)) return { ok: false, error: 'not a coverage file: no "pairs" array' };
  const bad = value.pairs.findIndex(
    (p: unknown) =>
      !isObject(p) ||
      typeof p.method !== 'string' ||
      typeof p.path !== 'string' ||
      typeof p.status !== 'string' ||
      typeof p.operationId !== 'string' ||
      !(typeof p.count === 'number' && Number.isSafeInteger(p.count) && p.count >= 0),
  );
  if (bad >= 0)
    return { ok: false, error: `pair ${bad} needs operationId, method, path, status and a count >= 0` };
  return { ok: true, file: value as unknown as CoverageFile };
}

const keyOf = (p: Pick<CoveragePair, 'method' | 'path' | 'status'>) =>
  `${p.method.toUpperCase()} ${p.path.replace(/\{[^}]*\}/g, '{}')} ${p.status}`;

/**
 * The union: every pair any input documents, observed where any input observed it, counts added up. Entries
 * keep the first input's order; a pair only a later input documents comes after.
 */
export function mergeCoverage(
  inputs: readonly (readonly (CoverageEntry | CoveragePair)[])[],
): CoverageEntry[] {
  const merged = new Map<string, CoverageEntry & { count: number }>();
  for (const entries of inputs)
    for (const e of entries) {
      const count = 'count' in e && e.count !== undefined ? e.count : 'observed' in e && e.observed ? 1 : 0;
      const key = keyOf(e);
      const seen = merged.get(key);
      if (seen) {
        seen.count += count;
        seen.observed = seen.count > 0;
      } else
        merged.set(key, {
          operationId: e.operationId,
          method: e.method.toUpperCase(),
          path: e.path,
          status: e.status,
          observed: count > 0,
          count,
        });
    }
  return [...merged.values()];
}

/** Shared helpers of the runner's tests. */
import { runConformance } from '../../conformance/index';
import type { ConformanceOptions, Report } from '../../conformance/types';

/** Run the whole suite (quota included) with the reference server's keys and a fixed seed. */
export function runAgainst(target: string, extra: Partial<ConformanceOptions> = {}): Promise<Report> {
  return runConformance({
    target,
    key: 'good-key',
    quotaKey: 'quota-key',
    include: ['quota'],
    seed: 42,
    maxWaitMs: 2000,
    timeoutMs: 5000,
    ...extra,
  });
}

/** Ids of the rules with this status, sorted. */
export function idsWith(report: Report, status: 'pass' | 'fail' | 'skip'): string[] {
  return report.rules
    .filter((r) => r.status === status)
    .map((r) => r.id)
    .sort();
}

/** Load from autocannon, programmatically, on 127.0.0.1: one bounded run, reduced to the numbers we report. */
import autocannon from 'autocannon';
import type { BenchRequest } from '../workloads';
import { sampleRss } from './proc';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Largest VmRSS seen while the load ran (bytes). */
  peakRss: number;
  statuses: Record<string, number>;
  errors: number;
}

export interface LoadOptions {
  port: number;
  path: string;
  request: BenchRequest;
  seconds: number;
  connections: number;
  pid: number;
}

/** Run autocannon against one server for `seconds`, sampling the server's RSS meanwhile. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const stopSampling = sampleRss(o.pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${o.port}${o.path}`,
    method: o.request.method,
    headers: o.request.headers,
    body: o.request.body || undefined,
    connections: o.connections,
    duration: o.seconds,
    timeout: 10,
  });
  const peakRss = stopSampling();
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0;
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    peakRss,
    statuses,
    errors: result.errors,
  };
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

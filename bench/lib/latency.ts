/** Latency of one request at a time, as a user of a mock or a proxy feels it. */
import { median } from './load';

/** Median milliseconds of `n` sequential GETs of `p` (kept-alive); throws on a non-2xx answer. */
export async function sequentialMedian(
  port: number,
  p: string,
  n: number,
  headers: Record<string, string>,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}${p}`, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status >= 300) throw new Error(`GET ${p} on port ${port} answered ${res.status}`);
  }
  return median(times);
}

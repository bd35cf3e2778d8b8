/** Load from autocannon, programmatically, on 127.0.0.1: one bounded run, reduced to the numbers we report. */
import autocannon, { type Client } from 'autocannon';
import type { BenchRequest, RotatingHeader } from '../workloads';
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

/**
 * Connections whose header `rotate.name` changes every `everyMs`: one rebuilt request per connection per
 * change, instead of one per request (autocannon's setupRequest) or a prebuilt list per connection (its
 * `requests`, whose build time eats into the run).
 */
function rotating(base: Record<string, string>, rotate: RotatingHeader | undefined) {
  const clients: Client[] = [];
  let i = 0;
  const next = () => ({ ...base, [rotate?.name ?? '']: rotate?.value(i++) ?? '' });
  const timer = rotate
    ? setInterval(() => clients.forEach((c) => c.setHeaders(next())), rotate.everyMs)
    : null;
  return {
    add: (client: Client) => {
      clients.push(client);
      client.setHeaders(next());
    },
    stop: () => (timer ? clearInterval(timer) : undefined),
  };
}

/** Something to run every `everyMs` while the load runs (one at a time, never overlapping). */
export interface Periodic {
  everyMs: number;
  run(): Promise<void>;
}

/** Call `p.run` every `p.everyMs` (skipped while the last call runs) until stopped; a failure is thrown then. */
function repeat(p: Periodic | undefined): () => Promise<void> {
  if (!p) return async () => undefined;
  let running: Promise<void> | null = null;
  let failure: unknown = null;
  const timer = setInterval(() => {
    if (running) return;
    running = p
      .run()
      .catch((err: unknown) => void (failure ??= err))
      .finally(() => (running = null));
  }, p.everyMs);
  return async () => {
    clearInterval(timer);
    await running;
    if (failure) throw failure;
  };
}

export interface LoadOptions {
  port: number;
  path: string;
  request: BenchRequest;
  /** A header whose value each connection changes every few milliseconds (the 401's client addresses). */
  rotate?: RotatingHeader;
  seconds: number;
  connections: number;
  pid: number;
  periodic?: Periodic;
}

/** Run autocannon against one server for `seconds`, sampling the server's RSS meanwhile. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const stopSampling = sampleRss(o.pid);
  const rotation = rotating(o.request.headers, o.rotate);
  const stopPeriodic = repeat(o.periodic);
  const result = await autocannon({
    url: `http://127.0.0.1:${o.port}${o.path}`,
    method: o.request.method,
    headers: o.request.headers,
    body: o.request.body || undefined,
    setupClient: o.rotate ? rotation.add : undefined,
    connections: o.connections,
    duration: o.seconds,
    timeout: 10,
  });
  rotation.stop();
  await stopPeriodic();
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

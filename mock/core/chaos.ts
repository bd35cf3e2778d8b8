/**
 * Latency and faults on demand (issue 33): `Prefer: delay=MS`, `--latency MS[-MS]` and `--faults RATE`, per
 * operation in the settings file. Pure decisions over a seeded random source: the same seed and the same
 * requests in the same order inject the same answers. The core only decides; the adapter waits (through the
 * engine's injected sleeper) or resets the connection.
 */
import type { OperationSpec } from '../../spec/compile';
import { seededRandom } from '../../spec/random';

export { seededRandom };

/** The longest delay any setting may ask for (a flag, a setting, a `Prefer: delay=`). */
export const MAX_DELAY_MS = 10_000;

export interface LatencyRange {
  min: number;
  max: number;
}

/** Latency and fault rate of one operation, over the mock-wide ones. */
export interface OperationChaos {
  /** `MS` or `MS-MS`. */
  latency?: string;
  /** The share of requests answered with a fault, 0 to 1. */
  faults?: number;
}

/** A fault: one of the operation's documented 5xx or 429, or a connection reset. */
export type Fault = { kind: 'status'; status: number } | { kind: 'reset' };

/** Pure: `MS` or `MS-MS` as a range, or why it is no latency. */
export function parseLatency(text: string): LatencyRange | { problem: string } {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  const min = Number(m?.[1]);
  const max = m?.[2] === undefined ? min : Number(m[2]);
  if (!m || min > max || max > MAX_DELAY_MS)
    return { problem: `latency must be MS or MIN-MAX milliseconds up to ${MAX_DELAY_MS}, got "${text}"` };
  return { min, max };
}

/** Pure: why `rate` is no fault rate, or undefined. */
export function faultRateProblem(rate: number): string | undefined {
  return Number.isFinite(rate) && rate >= 0 && rate <= 1
    ? undefined
    : `faults must be a share from 0 to 1, got ${String(rate)}`;
}

/** Pure: a delay in the range, drawn from `random`. */
export function drawDelay(range: LatencyRange, random: () => number): number {
  return range.min === range.max ? range.min : range.min + Math.floor(random() * (range.max - range.min + 1));
}

/** Pure: the statuses a fault may answer with: the operation's documented 5xx and 429. */
export function faultStatuses(operation: OperationSpec): number[] {
  return [...operation.responses.keys()]
    .filter((s) => /^5\d\d$/.test(s) || s === '429')
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * Pure: whether this request is answered with a fault, and which: with probability `rate`, one of the documented
 * 5xx or 429 or a reset connection, each as likely.
 */
export function decideFault(operation: OperationSpec, rate: number, random: () => number): Fault | undefined {
  if (rate <= 0 || random() >= rate) return undefined;
  const statuses = faultStatuses(operation);
  const pick = Math.floor(random() * (statuses.length + 1));
  const status = statuses[pick];
  return status === undefined ? { kind: 'reset' } : { kind: 'status', status };
}

/** Latency texts come from the options and the settings file only (a handful): each is parsed once. */
const latencies = new Map<string, ReturnType<typeof parseLatency>>();
function parsedLatency(text: string): ReturnType<typeof parseLatency> {
  let parsed = latencies.get(text);
  if (!parsed) latencies.set(text, (parsed = parseLatency(text)));
  return parsed;
}

/** What applies to one operation: the latency range to draw a delay from, if any, and the fault rate. */
export interface Chaos {
  latency?: LatencyRange;
  faults: number;
}

/** The latency and fault rate that apply to `operation`: its own settings over the mock-wide ones. */
export function chaosFor(
  operation: OperationSpec,
  config: {
    latency: string | null;
    faults: number;
    operationChaos: Readonly<Record<string, OperationChaos>>;
  },
): Chaos {
  const own = config.operationChaos[operation.operationId];
  const text = own?.latency ?? config.latency;
  const parsed = text === null || text === undefined ? undefined : parsedLatency(text);
  return {
    latency: parsed && 'min' in parsed ? parsed : undefined,
    faults: own?.faults ?? config.faults,
  };
}

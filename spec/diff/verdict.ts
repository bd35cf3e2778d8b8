/**
 * Pure: which changes recorded traffic exercises, and the release gate's exit code (docs/ship-safely.md).
 *
 * - 1: without traffic, any breaking change. With traffic: a recorded request the new version would refuse, a
 *   recorded answer its response schemas would reject, or a breaking change a recorded call exercises; with
 *   `--strict`, any breaking change at all.
 * - 2: traffic was given but no recorded call addresses the old document (nothing to judge).
 * - 0: otherwise; breaking changes no recorded call touches are listed, not failed.
 *
 * A change is exercised when: the operation is removed and recorded calls use it; a request-side change and
 * the new version refuses recorded calls of that operation (counted per operation, not per property); security
 * changed and recorded calls use the operation; a response-side change and recorded answers have its status.
 */
import type { Change, ClassifiedChange, OperationTraffic, TrafficReplay } from './types';

export interface DiffVerdict {
  code: 0 | 1 | 2;
  /** One line each, for the last lines of the output. */
  reasons: string[];
  /** The headline counts, each a sentence (`312 of 12,400 recorded requests, from 3 operations, …`). */
  headlines: string[];
}

const accepted = (t: OperationTraffic) => Object.values(t.statuses).reduce((n, c) => n + c, 0);

/** Calls of `t` under a documented status key (`200`, `4XX`, `default`). */
function callsWithStatus(t: OperationTraffic, status: string, documented: readonly string[]): number {
  let n = 0;
  for (const [code, count] of Object.entries(t.statuses)) {
    const exact = documented.includes(code);
    const range = `${code[0]}XX`;
    const match =
      code === status ||
      (!exact && status === range) ||
      (!exact && !documented.includes(range) && status === 'default');
    if (match) n += count;
  }
  return n;
}

/** Recorded calls that exercise one change (0 when none does). */
export function exercisingCalls(
  change: Change,
  t: OperationTraffic | undefined,
  statuses: readonly string[],
): number {
  if (!t) return 0;
  if (change.side === 'operation') return change.kind === 'operation.removed' ? t.refused : accepted(t);
  if (change.side === 'security') return accepted(t);
  if (change.side === 'request') return t.refused;
  return change.status === undefined ? accepted(t) : callsWithStatus(t, change.status, statuses);
}

/** Each change with whether (and by how many calls) the traffic exercises it; `statusesOf` gives an operation's documented statuses. */
export function classifyChanges(
  changes: readonly Change[],
  traffic: TrafficReplay | undefined,
  statusesOf: (operationId: string) => readonly string[] = () => [],
): ClassifiedChange[] {
  if (!traffic) return [...changes];
  const byId = new Map(traffic.operations.map((t) => [t.operationId, t]));
  return changes.map((c) => {
    const t = byId.get(c.operationId);
    const calls = exercisingCalls(c, t, statusesOf(c.operationId));
    return { ...c, exercised: calls > 0, calls, operationCalls: t ? accepted(t) : 0 };
  });
}

const n = (x: number) => x.toLocaleString('en-US');
const ops = (k: number) => `${k} operation${k === 1 ? '' : 's'}`;

/** What the traffic's counts stand on: judged, outside the old document, already refused by it. */
export function trafficAccount(traffic: TrafficReplay): { judged: number; line: string } {
  const judged = traffic.recorded - traffic.outside - traffic.alreadyRefused;
  return {
    judged,
    line:
      `${n(judged)} of ${n(traffic.recorded)} recorded requests judged; ` +
      `${n(traffic.outside)} outside the old document (not judged), ` +
      `${n(traffic.alreadyRefused)} already refused by the old version (counted apart)`,
  };
}

/** The gate's exit code and why. */
export function diffVerdict(
  changes: readonly ClassifiedChange[],
  traffic: TrafficReplay | undefined,
  strict = false,
): DiffVerdict {
  const breaking = changes.filter((c) => c.breaking);
  const reasons: string[] = [];
  const headlines: string[] = [];
  if (!traffic) {
    headlines.push(
      `${breaking.length} breaking and ${changes.length - breaking.length} compatible change(s)`,
    );
    if (breaking.length > 0) reasons.push(`${breaking.length} breaking change(s)`);
    return { code: reasons.length ? 1 : 0, reasons, headlines };
  }
  const refused = traffic.operations.filter((t) => t.refused > 0);
  const rejected = traffic.operations.filter((t) => t.rejected > 0);
  const removed = traffic.operations.filter((t) => t.removed && t.refused > 0);
  const sum = (list: OperationTraffic[], key: 'refused' | 'rejected') => list.reduce((k, t) => k + t[key], 0);
  const account = trafficAccount(traffic);
  // Answers are judged only where the new version accepts the request.
  const answers = account.judged - sum(refused, 'refused');
  headlines.push(
    account.line,
    `${n(sum(refused, 'refused'))} of ${n(account.judged)} judged requests, from ${ops(refused.length)}, would be refused by the new version`,
    `${n(sum(rejected, 'rejected'))} of ${n(answers)} judged answers, from ${ops(rejected.length)}, would be rejected by the new version's response schemas`,
  );
  if (removed.length > 0)
    headlines.push(
      `${n(sum(removed, 'refused'))} recorded requests use ${ops(removed.length)} the new version removes: ${removed.map((t) => t.operationId).join(', ')}`,
    );
  const exercised = breaking.filter((c) => c.exercised);
  headlines.push(
    `${breaking.length} breaking change(s): ${exercised.length} exercised by the traffic, ${breaking.length - exercised.length} not`,
  );
  if (sum(refused, 'refused') > 0)
    reasons.push(`${n(sum(refused, 'refused'))} recorded request(s) would be refused`);
  if (sum(rejected, 'rejected') > 0)
    reasons.push(`${n(sum(rejected, 'rejected'))} recorded answer(s) would be rejected`);
  if (exercised.length > 0)
    reasons.push(`${exercised.length} breaking change(s) exercised by recorded traffic`);
  if (strict && breaking.length > exercised.length)
    reasons.push(
      `--strict: ${breaking.length - exercised.length} breaking change(s) no recorded call exercises`,
    );
  if (reasons.length > 0) return { code: 1, reasons, headlines };
  if (traffic.recorded - traffic.outside === 0)
    return {
      code: 2,
      reasons: [`no recorded exchange addresses the old document: ${account.line}`],
      headlines,
    };
  return { code: 0, reasons, headlines };
}

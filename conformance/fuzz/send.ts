/** One fuzz case on the wire: the request it makes, and what the answer must be (a problem, or none). */
import type { OperationSpec } from '../../spec/load';
import { notFoundStatus, rejectStatuses, successStatuses } from '../../spec/statuses';
import type { Outgoing, SendResult } from '../execute/client';
import type { RunContext } from '../execute/check-context';
import { jsonMediaType } from '../generate/requests';
import type { FuzzCase, FuzzRequest } from './cases';
import type { JsonPath } from './json-path';

/** Where a case goes: the path found for the operation, and its item parameter when it has one. */
export interface CaseTarget {
  path: string;
  itemParam?: string;
  /** Body paths the shrinker keeps as they are (see CaseSource.pinned). */
  pinned?: JsonPath[];
}

/** The request a case makes. */
export function outgoingOf(op: OperationSpec, target: CaseTarget, request: FuzzRequest): Outgoing {
  const path =
    request.pathValue !== undefined && target.itemParam
      ? op.path.replace(`{${target.itemParam}}`, encodeURIComponent(request.pathValue))
      : target.path;
  const body = request.raw ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  return {
    method: op.method.toUpperCase(),
    path,
    auth: { use: 'key' },
    ...(request.query ? { query: request.query } : {}),
    ...(body !== undefined ? { headers: { 'Content-Type': jsonMediaType(op) }, body } : {}),
  };
}

/** The statuses a case's answer may have. */
export function expectedStatuses(op: OperationSpec, c: Pick<FuzzCase, 'expect' | 'request'>): number[] {
  if (c.expect === 'accept') {
    const ok = successStatuses(op).map(Number);
    return ok.length > 0 ? ok : [200, 201, 202, 204];
  }
  if (c.request.pathValue !== undefined)
    return [...new Set([400, notFoundStatus(op), ...rejectStatuses(op)])];
  return rejectStatuses(op);
}

/** What is wrong with the answer to a case, or undefined; a send that got no answer is a problem too. */
export function problemOf(
  op: OperationSpec,
  c: Pick<FuzzCase, 'expect' | 'request'>,
  result: SendResult,
): string | undefined {
  if (result.kind === 'error') return `no response: ${result.exchange.error ?? ''}`;
  if (result.kind !== 'response') return undefined;
  const status = result.response.status;
  const wanted = expectedStatuses(op, c);
  if (wanted.includes(status)) return undefined;
  const side = c.expect === 'accept' ? 'valid, so accepted' : 'invalid, so refused';
  return `status ${status}, expected ${wanted.join(' or ')} (${side})`;
}

/** Send a case; undefined when the pacer skipped it (a rate limit that outlasts --max-wait). */
export async function sendCase(
  ctx: RunContext,
  op: OperationSpec,
  target: CaseTarget,
  request: FuzzRequest,
): Promise<SendResult> {
  return ctx.client.send(outgoingOf(op, target, request));
}

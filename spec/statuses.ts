/** The statuses an operation documents for success, an unknown id and a rejected body: the runner expects them. */
import type { OperationSpec } from './compile';
import { bodyRefusalStatus } from './http/request-body';

export { successStatuses } from './success';

/** The status an unknown id gets: 404, or 400 where the operation documents only that (nor 4XX, nor default). */
export function notFoundStatus(op: OperationSpec): number {
  const r = op.responses;
  return r.has('404') || r.has('4XX') || r.has('default') || !r.has('400') ? 404 : 400;
}

/**
 * The statuses a rejected body may get: the shared body rule's (spec/http/request-body.ts), as the mock and judge
 * use; where the operation documents no refusal at all (no 400, 422, 4XX or default), HTTP's two for bad input.
 */
export function rejectStatuses(op: OperationSpec): number[] {
  const unsaid = !['400', '422', '4XX', 'default'].some((s) => op.responses.has(s));
  return unsaid ? [400, 422] : [bodyRefusalStatus(op.responses)];
}

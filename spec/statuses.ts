/** The statuses an operation documents for success, an unknown id and a rejected body: the runner expects them. */
import type { OperationSpec } from './compile';

/** Documented 2xx statuses of an operation. */
export const successStatuses = (op: OperationSpec): string[] =>
  [...op.responses.keys()].filter((s) => /^2\d\d$/.test(s));

/** The status an unknown id gets: 404, or 400 where the operation documents only that (nor 4XX, nor default). */
export function notFoundStatus(op: OperationSpec): number {
  const r = op.responses;
  return r.has('404') || r.has('4XX') || r.has('default') || !r.has('400') ? 404 : 400;
}

/** The status a documented rejection of a bad body has: 400, or 422 when only that is documented. */
export function rejectStatuses(op: OperationSpec): number[] {
  const documented = [...op.responses.keys()];
  return documented.includes('400') || !documented.includes('422') ? [400] : [422];
}

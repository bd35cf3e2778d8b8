/** The documented example answer of a status: used by the handle stage and by injected faults. */
import type { OperationSpec } from '../../spec/compile';
import type { Reply } from './context';

/** The documented example for `status`, or an error of that status when the document gives none. */
export function exampleReply(operation: OperationSpec, status: number): Reply {
  const res = operation.responses.get(String(status));
  const headers: Record<string, string> = status === 429 ? { 'Retry-After': '60' } : {};
  if (res?.example !== undefined) return { status, body: res.example, headers, contentType: res.contentType };
  if (status >= 400)
    return { status, error: { code: `example_${status}`, message: res?.description ?? 'example' }, headers };
  return { status, headers };
}

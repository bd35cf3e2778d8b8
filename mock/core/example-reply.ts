/** The documented example answer of a status: used by the handle stage and by injected faults. */
import type { OperationSpec } from '../../spec/compile';
import { ERROR_CODES, type ErrorCode } from '../../spec/error-codes';
import type { Reply } from './context';

/** The catalogue's code for a status (`429` -> `rate_limited`), else its class's (`bad_request`, `internal_error`). */
export function codeForStatus(status: number): ErrorCode {
  const named = (Object.keys(ERROR_CODES) as ErrorCode[]).find((c) => ERROR_CODES[c] === status);
  return named ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

/** The documented example for `status`, or an error of that status when the document gives none. */
export function exampleReply(operation: OperationSpec, status: number): Reply {
  const res = operation.responses.get(String(status));
  const headers: Record<string, string> = status === 429 ? { 'Retry-After': '60' } : {};
  if (res?.example !== undefined) return { status, body: res.example, headers, contentType: res.contentType };
  if (status >= 400)
    return {
      status,
      error: { code: codeForStatus(status), message: res?.description ?? `the documented ${status} answer` },
      headers,
    };
  return { status, headers };
}

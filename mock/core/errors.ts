/**
 * Every error the mock can send, in one catalogue, as values: a status, a stable code and a message. The
 * respond stage renders them in the shape the document gives for that status (spec/error-shape.ts); for
 * the default document that is its Error schema (§7). The table of codes in docs/mock-errors-and-pipeline.md is kept in step by a test.
 */
import type { ErrorFields } from '../../spec/error-shape';
import { ERROR_CODES, type ErrorCode } from '../../spec/error-codes';
import { refusalStatus } from '../../spec/http/request-rules';

export interface ErrorReply {
  status: number;
  error: ErrorFields;
  headers?: Record<string, string>;
}

export { ERROR_CODES, type ErrorCode } from '../../spec/error-codes';

/** Build an error reply of the catalogue's status for `code`. */
export function apiError(code: ErrorCode, message: string, headers?: Record<string, string>): ErrorReply {
  return { status: ERROR_CODES[code], error: { code, message }, headers };
}

/** Pure: is this value an error reply (a stage's failure) rather than a result? */
export const isErrorReply = (v: unknown): v is ErrorReply =>
  typeof v === 'object' && v !== null && 'error' in v && 'status' in v;

/** §7 400: the request body is missing required fields or contains invalid values. */
export const invalidRequest = (message: string): ErrorReply => apiError('invalid_request', message);
/** 400: the body is not JSON at all. */
export const malformedJson = (detail: string): ErrorReply =>
  apiError('malformed_json', `request body is not valid JSON: ${detail}`);
/** 400: bytes that are not UTF-8, or a path with broken percent-encoding. */
export const invalidEncoding = (what: string): ErrorReply => apiError('invalid_encoding', what);
/** §5 / §7 401, with the challenge of the schemes that would have been accepted (RFC 9110 §11.6.1). */
export const unauthorized = (
  message = 'The API key is missing or invalid.',
  challenge = 'Bearer realm="mock"',
): ErrorReply => apiError('unauthorized', message, { 'WWW-Authenticate': challenge });
export const notFound = (path: string): ErrorReply => apiError('not_found', `no operation at ${path}`);
/** 404 for an item id the resource does not hold. */
export const noSuchRecord = (resource: string, id: string): ErrorReply =>
  apiError('not_found', `no ${resource} record with id ${id}`);
export const methodNotAllowed = (method: string, path: string, allow: string[]): ErrorReply =>
  apiError('method_not_allowed', `${method} is not allowed on ${path}; allowed: ${allow.join(', ')}`, {
    Allow: allow.join(', '),
  });
export const notAcceptable = (accept: string, offered: readonly string[]): ErrorReply =>
  apiError('not_acceptable', `Accept: ${accept} matches none of ${offered.join(', ')}`);
export const payloadTooLarge = (limit: number): ErrorReply =>
  apiError('payload_too_large', `request body is larger than ${limit} bytes`, { Connection: 'close' });
export const unsupportedMediaType = (got: string, accepted: readonly string[]): ErrorReply =>
  apiError('unsupported_media_type', `Content-Type must be ${accepted.join(' or ')}, got ${got || 'none'}`);
/** §8: 429 with Retry-After in whole seconds (the mock's documented unit). */
export const rateLimited = (retryAfterS: number, window: string): ErrorReply =>
  apiError('rate_limited', `rate limit exceeded for the ${window} window; retry after ${retryAfterS} s`, {
    'Retry-After': String(retryAfterS),
  });
/** §8.3: repeated requests after a 429 lead to a temporary ban of the key. */
export const keyBanned = (retryAfterS: number): ErrorReply =>
  apiError('key_banned', `too many requests while rate limited: temporarily banned for ${retryAfterS} s`, {
    'Retry-After': String(retryAfterS),
  });
export const internalError = (): ErrorReply =>
  apiError('internal_error', 'internal error in the mock server');
export const serviceUnavailable = (retryAfterS: number): ErrorReply =>
  apiError('service_unavailable', 'the mock state store is unavailable; retry shortly', {
    'Retry-After': String(retryAfterS),
  });

/**
 * A 4xx as the operation documents it: kept when it documents that status (or `4XX`, or `default`), else the
 * first documented alternative (`422` for a bad body or query, `404` for a path parameter naming no item,
 * `400` for an unknown id where only that is documented).
 */
export function asDocumented(
  responses: ReadonlyMap<string, unknown>,
  reply: ErrorReply,
  alternatives: readonly number[],
): ErrorReply {
  const status = refusalStatus(responses, reply.status, alternatives);
  return status === reply.status ? reply : { ...reply, status };
}

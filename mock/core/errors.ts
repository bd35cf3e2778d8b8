/**
 * Every error the mock can send, in one catalogue. Each is the spec's Error shape (§7) with a stable code;
 * the README's table of codes is kept in step with ERROR_CODES by a test.
 */
import type { ApiError } from '../../spec/types';

export interface ErrorReply {
  status: number;
  body: ApiError;
  headers?: Record<string, string>;
}

export const ERROR_CODES = {
  invalid_request: 400,
  malformed_json: 400,
  invalid_encoding: 400,
  invalid_prefer: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  header_too_large: 431,
  rate_limited: 429,
  key_banned: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Build an error reply of the catalogue's status for `code`. */
export function apiError(code: ErrorCode, message: string, headers?: Record<string, string>): ErrorReply {
  const status = ERROR_CODES[code];
  return { status, body: { code, message, status }, headers };
}

/** §7 400: the request body is missing required fields or contains invalid values. */
export const invalidRequest = (message: string): ErrorReply => apiError('invalid_request', message);
/** 400: the body is not JSON at all. */
export const malformedJson = (detail: string): ErrorReply =>
  apiError('malformed_json', `request body is not valid JSON: ${detail}`);
/** 400: bytes that are not UTF-8, or a path with broken percent-encoding. */
export const invalidEncoding = (what: string): ErrorReply => apiError('invalid_encoding', what);
/** §5 / §7 401, with the RFC 6750 challenge. */
export const unauthorized = (message = 'The API key is missing or invalid.'): ErrorReply =>
  apiError('unauthorized', message, { 'WWW-Authenticate': 'Bearer realm="petstore"' });
export const notFound = (path: string): ErrorReply => apiError('not_found', `no operation at ${path}`);
export const methodNotAllowed = (method: string, path: string, allow: string[]): ErrorReply =>
  apiError('method_not_allowed', `${method} is not allowed on ${path}; allowed: ${allow.join(', ')}`, {
    Allow: allow.join(', '),
  });
export const payloadTooLarge = (limit: number): ErrorReply =>
  apiError('payload_too_large', `request body is larger than ${limit} bytes`, { Connection: 'close' });
export const unsupportedMediaType = (got: string): ErrorReply =>
  apiError('unsupported_media_type', `Content-Type must be application/json, got ${got || 'none'}`);
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

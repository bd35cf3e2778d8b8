/** The machine codes of the error answers the mock and the proxy send, each with its HTTP status (docs/mock-errors-and-pipeline.md lists them). */
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
  not_acceptable: 406,
  request_timeout: 408,
  duplicate_id: 409,
  record_limit: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  upgrade_required: 426,
  header_too_large: 431,
  rate_limited: 429,
  key_banned: 429,
  internal_error: 500,
  bad_gateway: 502,
  service_unavailable: 503,
  gateway_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

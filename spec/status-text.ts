/** Reason phrases (RFC 9110 §15) for the statuses the mock answers; the core has no node:http STATUS_CODES. */
const TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The reason phrase of `status`, or a generic one for its class. */
export function statusText(status: number): string {
  return TEXT[status] ?? (status >= 500 ? 'Server Error' : status >= 400 ? 'Client Error' : 'OK');
}

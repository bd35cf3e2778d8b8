/**
 * What the mock and the proxy share about one HTTP/1.1 connection (Node only): the answers still due on it
 * (an error about a later request waits for them: one request, one answer, in order), and which error answers
 * the HTTP that Node refuses before it becomes a request (the same status for the same fault in both tools).
 */
import type { ErrorCode } from '../error-codes';

/** Responses still being produced on each connection. */
const inFlight = new WeakMap<object, { count: number; idle: Array<() => void> }>();

/** Count a response in progress on `socket`; the function returned marks it done (once). */
export function begin(socket: object): () => void {
  let entry = inFlight.get(socket);
  if (!entry) inFlight.set(socket, (entry = { count: 0, idle: [] }));
  entry.count++;
  const e = entry;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--e.count > 0 || e.idle.length === 0) return;
    const waiting = e.idle;
    e.idle = [];
    for (const f of waiting) f();
  };
}

/** How many responses are in progress on `socket` (begun and not yet marked done). */
export function answersDue(socket: object): number {
  return inFlight.get(socket)?.count ?? 0;
}

/** Run `run` once no response is in progress on `socket` (at once when none is). */
export function whenIdle(socket: object, run: () => void): void {
  const entry = inFlight.get(socket);
  if (!entry || entry.count === 0) run();
  else entry.idle.push(run);
}

/** Pure: the error for HTTP that Node refused (its `clientError` code): 431, 408, else 400. */
export function clientErrorFields(code: string | undefined): { code: ErrorCode; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return { code: 'header_too_large', message: 'request headers are too large' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { code: 'request_timeout', message: 'the request was not received in time' };
  // Node's parser reads the methods of http.METHODS only (QUERY and COPY among them, issue 33).
  if (code === 'HPE_INVALID_METHOD')
    return {
      code: 'bad_request',
      message: "the request method is not one Node's HTTP parser reads (HPE_INVALID_METHOD)",
    };
  return { code: 'bad_request', message: `malformed HTTP request (${code ?? 'unknown'})` };
}

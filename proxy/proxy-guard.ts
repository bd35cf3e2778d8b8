/**
 * HTTP that Node refuses before it becomes a request, answered by the proxy in the document's error shape (as
 * the mock answers it: the same status for the same fault, `clientErrorReply`), never Node's bare answer or a
 * closed socket: a bad request line, headers over 16 KiB (431), a bad chunk, two Content-Lengths, a slow
 * client (408), `Expect` other than 100-continue (417), `CONNECT` (405). One request, one answer: an error
 * about a later request on a connection waits for the answers still due on it.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { begin, clientErrorFields, whenIdle } from '../spec/http/connection';
import { ERROR_CODES } from '../spec/error-codes';
import type { OwnAnswer, OwnAnswers } from './own-answers';

/** A request whose body is still arriving: a parse error in it is that request's one answer. */
export type BodyFailure = (answer: OwnAnswer) => void;
const bodiesInFlight = new WeakMap<object, BodyFailure>();

/** While a request's body is forwarded, a parse error in it goes to `onFailure`; returns the release. */
export function watchBody(socket: object, onFailure: BodyFailure): () => void {
  bodiesInFlight.set(socket, onFailure);
  return () => {
    if (bodiesInFlight.get(socket) === onFailure) bodiesInFlight.delete(socket);
  };
}

/** Count the proxy's answer on `res` in progress, so an error about a later request waits for it. */
export function track(req: IncomingMessage, res: ServerResponse): void {
  res.once('close', begin(req.socket));
}

/** Write `answer` straight to the socket (HTTP/1.1, Connection: close), then end it. */
export function answerOnSocket(socket: Duplex, answer: OwnAnswer, afterEarlier: boolean): void {
  const run = afterEarlier ? (f: () => void) => whenIdle(socket, f) : (f: () => void) => f();
  run(() => {
    if (!socket.writable) return void socket.destroy();
    const lines = Object.entries({ ...answer.headers, Connection: 'close' })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${lines}\r\n`);
    socket.end(answer.body);
  });
}

/** Install the proxy's answers for what Node refuses on `server`. */
export function guardServer(server: Server, answers: OwnAnswers): void {
  server.on('clientError', function proxyClientError(err: NodeJS.ErrnoException, socket: Duplex) {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const { code, message } = clientErrorFields(err.code);
    const own = answers.render(undefined, ERROR_CODES[code], code, message, {
      address: (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? '',
    });
    // A malformed body of a request being forwarded: its one answer, given by its own handler.
    const inFlight = bodiesInFlight.get(socket);
    if (inFlight) {
      bodiesInFlight.delete(socket);
      return inFlight(own);
    }
    answerOnSocket(socket, own, err.code !== 'ERR_HTTP_REQUEST_TIMEOUT');
  });
  server.on('connect', function proxyConnect(req: IncomingMessage, socket: Duplex) {
    const answer = answers.render(
      undefined,
      405,
      'method_not_allowed',
      `CONNECT ${String(req.url).slice(0, 200)}: the proxy opens no tunnels`,
    );
    answerOnSocket(
      socket,
      { ...answer, headers: { ...answer.headers, Allow: 'GET, HEAD, POST, PUT, PATCH, DELETE' } },
      false,
    );
  });
  server.on('checkExpectation', function proxyExpectation(req: IncomingMessage, res: ServerResponse) {
    track(req, res);
    req.resume();
    const answer = answers.render(
      undefined,
      417,
      'expectation_failed',
      `Expect: ${String(req.headers.expect).slice(0, 100)} is not supported (only 100-continue)`,
    );
    res.shouldKeepAlive = false;
    res.writeHead(answer.status, { ...answer.headers, Connection: 'close' }).end(answer.body);
  });
}

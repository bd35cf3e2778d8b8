/**
 * Issue 21, point 4: one request gets exactly one answer. A request refused before its body is read (401, 429)
 * and followed by a malformed chunked body (an empty or an overflowing chunk size) is answered once, with
 * `Connection: close`; Node's parser error about the rest never becomes a second answer on that connection.
 */
import net from 'node:net';
import { createMockServer, type MockServer } from '../mock/node/index';

const KEY = 'one-answer-enterprise-key';
let mock: MockServer;
let port: number;

beforeAll(async () => {
  mock = await createMockServer({
    keys: [{ key: KEY, plan: 'enterprise', perMinute: 1, perDay: 1000 }],
    seed: {},
    seedFile: null,
  });
  port = Number(new URL(await mock.listen(0)).port);
});
afterAll(() => mock.close());

/** Write `bytes` on a fresh connection; everything the server sends until it closes (or 3 s pass). */
function exchange(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, 3000);
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', done);
    socket.write(bytes);
  });
}

/** Every status line in what the server sent (an answer may follow the previous body on the same line). */
const statusLines = (text: string): string[] => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];

const BAD_BODIES: Array<[string, string]> = [
  ['an empty chunk size', '\r\n\r\n'],
  ['an overflowing chunk size', 'FFFFFFFFFFFFFFFFFFFFFFFF\r\nabc\r\n0\r\n\r\n'],
  ['a chunk size that is no number', 'zz\r\nabc\r\n'],
];

const head = (auth: string): string =>
  `POST /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${auth}Transfer-Encoding: chunked\r\n\r\n`;

describe.each(BAD_BODIES)('a refused request followed by %s', (_name, body) => {
  it('401: one answer', async () => {
    const text = await exchange(head('') + body);
    expect(statusLines(text)).toEqual(['HTTP/1.1 401']);
    expect(text).toMatch(/"status":401/);
  });

  it('429: one answer whose rate-limit fields are not contradicted', async () => {
    // The key's one request a minute is spent first, by a request with no body.
    await exchange(
      `GET /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    );
    const text = await exchange(head(`Authorization: Bearer ${KEY}\r\n`) + body);
    expect(statusLines(text)).toEqual(['HTTP/1.1 429']);
    expect(text).toMatch(/\r\nX-RateLimit-Remaining: 0\r\n/i);
    expect(text).toMatch(/\r\nRetry-After: \d+\r\n/i);
  });
});

it('a well-formed unread body is drained: the next request on the connection is answered', async () => {
  const json = '{"name":"x"}';
  const text = await exchange(
    `POST /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n${json}` +
      `GET /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
  );
  expect(statusLines(text)).toEqual(['HTTP/1.1 401', 'HTTP/1.1 401']);
});

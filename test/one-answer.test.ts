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
function exchange(bytes: string, to = port): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(to, '127.0.0.1');
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

/** Like exchange, with the body sent only after the server has answered the head (or 200 ms have passed). */
function exchangeLate(headBytes: string, bodyBytes: string, to = port): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(to, '127.0.0.1');
    let received = '';
    let sent = false;
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, 3000);
    const sendBody = (): void => {
      if (sent || socket.destroyed) return;
      sent = true;
      socket.write(bodyBytes, () => undefined);
    };
    // After the answer, or after 200 ms when the mock waits for the body before answering.
    const wait = setTimeout(sendBody, 200);
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
      clearTimeout(wait);
      sendBody();
    });
    socket.on('error', () => undefined);
    socket.on('close', done);
    socket.write(headBytes);
  });
}

const PRO = 'one-answer-pro-key-0001';
let proPort: number;
let pro: MockServer;
beforeAll(async () => {
  pro = await createMockServer({
    keys: [{ key: PRO, plan: 'pro' }],
    seed: {},
    seedFile: null,
    maxBodyBytes: 1024,
  });
  proPort = Number(new URL(await pro.listen(0)).port);
});
afterAll(() => pro.close());

const refusedHeads: Array<[number, string]> = [
  [415, `Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n`],
  [417, `Content-Type: application/json\r\nExpect: teapot\r\nTransfer-Encoding: chunked\r\n`],
  [413, `Content-Type: application/json\r\nContent-Length: 99999999\r\n`],
  [413, `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n`],
];

describe.each(refusedHeads)('%i refused before the body, then a malformed body', (status, headers) => {
  const start = `POST /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${PRO}\r\n${headers}\r\n`;
  // A 413 for a chunked body comes once the limit is passed: its first chunk is over the limit.
  const over = status === 413 && headers.includes('chunked') ? `800\r\n${'a'.repeat(2048)}\r\n` : '';
  it.each(BAD_BODIES)('%s, sent at once or after the answer: one answer', async (_name, body) => {
    const atOnce = await exchange(start + over + body, proPort);
    for (const text of [atOnce, await exchangeLate(start + over, body, proPort)]) {
      // The refusal, or a 400 for the malformed framing when the mock was reading that body: one of them.
      const lines = statusLines(text);
      expect(lines).toHaveLength(1);
      expect([`HTTP/1.1 ${status}`, 'HTTP/1.1 400']).toContain(lines[0]);
      expect(text).toMatch(new RegExp(`"status":${lines[0]?.slice(9)}`));
      expect(text).toMatch(/\r\nX-RateLimit-Remaining: \d+\r\n/i);
    }
  });
});

/**
 * Slow or hostile clients (issue 5, "Robustness"): a client that sends its headers or its body slowly is cut
 * off by the header and request timeouts, oversized headers are refused (431), and the server keeps answering
 * everyone else meanwhile. Timeouts are set small here through createMockServer's config. Answers Node gives
 * before the pipeline runs (408, 431) carry the Error shape and the rate-limit headers too (§7, §8).
 */
import net from 'node:net';
import { createMockServer, type MockServer } from '../mock/node/index';

const KEY = 'hostile-enterprise-key';
const HEADERS_TIMEOUT_MS = 1500;
const REQUEST_TIMEOUT_MS = 2500;
/**
 * How much later than its timeout a connection may still be open before the test calls it held. Generous for
 * loaded CI machines (cut-offs of ~2-3 s were seen under jest at load average 4); Node's own default would
 * hold it for up to 30 s, which this still tells apart.
 */
const SLACK_MS = 3000;

let mock: MockServer;
let base: string;
let port: number;
const open: net.Socket[] = [];

beforeAll(async () => {
  mock = await createMockServer({
    keys: [{ key: KEY, plan: 'enterprise', perMinute: 1e9, perDay: 1e12 }],
    seed: { categories: [{ name: 'dog' }] },
    headersTimeoutMs: HEADERS_TIMEOUT_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  base = await mock.listen(0);
  port = Number(new URL(base).port);
});
afterEach(() => {
  for (const s of open.splice(0)) s.destroy();
});
afterAll(() => mock.close());

interface Trickle {
  socket: net.Socket;
  /** Resolves when the server closes the connection: after how long, and what it sent first. */
  closed: Promise<{ afterMs: number; received: string }>;
}

/** Send `first` at once, then one byte of `rest` every `everyMs`, the way a slowloris client does. */
function trickle(first: string, rest: string, everyMs: number): Trickle {
  const started = performance.now();
  const socket = net.connect(port, '127.0.0.1');
  open.push(socket);
  let received = '';
  let i = 0;
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', () => undefined); // a reset from the server is a way of being cut off too
  socket.write(first);
  const timer = setInterval(() => {
    if (i < rest.length && !socket.destroyed && socket.writable) socket.write(rest.charAt(i++));
  }, everyMs);
  const closed = new Promise<{ afterMs: number; received: string }>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ afterMs: performance.now() - started, received });
    }),
  );
  return { socket, closed };
}

/** Resolves with the close, or with null if the connection is still open after `ms`. */
const closedWithin = (t: Trickle, ms: number) =>
  Promise.race([t.closed, new Promise<null>((r) => setTimeout(() => r(null), ms))]);

const slowBody = () =>
  trickle(
    'POST /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
      `Authorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`,
    `{"name":"${'x'.repeat(189)}"}`,
    100,
  );
const slowHeaders = () =>
  trickle('GET /v1/categories HTTP/1.1\r\n', `Host: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n\r\n`, 100);

async function listFast(): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${base}/categories`, { headers: { Authorization: `Bearer ${KEY}` } });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual([{ id: 1, name: 'dog' }]);
  return performance.now() - t0;
}

/** Split a raw HTTP answer into its status, lower-cased headers and JSON body. */
function parseAnswer(raw: string): { status: number; headers: Record<string, string>; body: unknown } {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: JSON.parse(raw.slice(split + 4)) as unknown,
  };
}

/** §7/§8: what Node refuses before the pipeline still gets the Error shape and the rate-limit headers. */
function expectErrorAnswer(raw: string | undefined, status: number): void {
  const answer = parseAnswer(raw ?? '');
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.body).toEqual({ code: expect.any(String), message: expect.any(String), status });
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(answer.headers[h]).toMatch(/^\d+$/);
}

describe('slow and hostile clients', () => {
  it('keeps answering others promptly while 40 slow clients hold connections, until they are cut off', async () => {
    const slow = [...Array.from({ length: 20 }, slowBody), ...Array.from({ length: 20 }, slowHeaders)];
    const stillOpen = () => slow.filter((s) => !s.socket.destroyed).length;
    const deadline = performance.now() + REQUEST_TIMEOUT_MS + SLACK_MS;
    const times: number[] = [];
    let answeredWhileHeld = 0;
    while (stillOpen() > 0 && performance.now() < deadline) {
      const held = stillOpen();
      times.push(...(await Promise.all(Array.from({ length: 10 }, listFast))));
      if (held === slow.length) answeredWhileHeld += 10;
    }
    expect(answeredWhileHeld).toBeGreaterThan(0); // answered while every slow client still held on
    expect(Math.max(...times)).toBeLessThan(1000);
    expect(stillOpen()).toBe(0); // and every slow client was cut off by its timeout
  });

  it('refuses headers larger than maxHeaderBytes with a 431 Error and closes the connection', async () => {
    const big = 'x'.repeat(mock.deps.config.maxHeaderBytes + 1024);
    const t = trickle(`GET /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${big}\r\n\r\n`, '', 1000);
    const closed = await closedWithin(t, 2000);
    expectErrorAnswer(closed?.received, 431);
    expect(await listFast()).toBeLessThan(1000);
  });

  it('answers a declared oversized body with 413 at once, without waiting for the bytes', async () => {
    const t = trickle(
      'POST /v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        `Authorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n{`,
      'x'.repeat(100),
      100,
    );
    const answered = await new Promise<string>((resolve) => {
      let got = '';
      t.socket.on('data', (d: Buffer) => {
        got += d.toString('latin1');
        if (got.includes('\r\n\r\n')) resolve(got);
      });
    });
    expect(answered).toMatch(/^HTTP\/1\.1 413 /);
    expect(answered).toMatch(/content-type: application\/json/i);
  });

  // Node enforces both timeouts only every connectionsCheckingInterval (30 s by default); the mock sets it
  // from the two timeouts, so the cut-off comes soon after the timeout (found by this test; fixed in 62b8010).
  it('cuts off a client that sends its body slowly soon after requestTimeoutMs, with a 408 Error', async () => {
    const closed = await closedWithin(slowBody(), REQUEST_TIMEOUT_MS + SLACK_MS);
    expect(closed).not.toBeNull();
    expect(closed?.afterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expectErrorAnswer(closed?.received, 408);
  });

  it('cuts off a client that sends its headers slowly soon after headersTimeoutMs, with a 408 Error', async () => {
    const closed = await closedWithin(slowHeaders(), HEADERS_TIMEOUT_MS + SLACK_MS);
    expect(closed).not.toBeNull();
    expect(closed?.afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expectErrorAnswer(closed?.received, 408);
  });

  // Found by these tests, fixed in mock/index.ts and mock/app.ts: a request without Host goes through the
  // pipeline (requireHostHeader: false), CONNECT gets a 405 Error, and the absolute form is served.
  it('answers a request without a Host header with the Error shape and the headers', async () => {
    const t = trickle('GET /v1/categories HTTP/1.1\r\nConnection: close\r\n\r\n', '', 1000);
    expectErrorAnswer((await closedWithin(t, 2000))?.received, 400);
  });

  it('answers CONNECT with an Error instead of dropping the connection', async () => {
    const t = trickle('CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n', '', 1000);
    expectErrorAnswer((await closedWithin(t, 2000))?.received, 405);
  });

  it('serves an absolute-form request target like its origin-form path', async () => {
    const t = trickle(
      `GET http://127.0.0.1:${port}/v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Authorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
      '',
      1000,
    );
    expect((await closedWithin(t, 2000))?.received).toMatch(/^HTTP\/1\.1 200 /);
  });
});

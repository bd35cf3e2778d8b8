/**
 * Issue 42: a client that half-closes after its request (`socket.end()`, `shutdown(SHUT_WR)`, as `nc -q`, health
 * checks and HTTP/1.0 clients do) gets every answer it asked for, whole, from the mock and from the proxy.
 */
import net from 'node:net';
import { createMockServer, type MockServer } from '../../mock/node/index';
import { createProxyServer, type ProxyServer } from '../../proxy/proxy-server';
import { loadSpecOrThrow } from '../../spec/load';
import { KEYS } from '../support/mock-harness';

let mock: MockServer;
let proxy: ProxyServer;
let mockBase: URL;
let proxyBase: URL;

beforeAll(async () => {
  mock = await createMockServer({ keys: KEYS });
  mockBase = new URL(await mock.listen(0));
  proxy = createProxyServer({
    spec: await loadSpecOrThrow(),
    upstream: mockBase,
    mode: 'report',
    timeoutMs: 5000,
    maxBodyBytes: 1 << 20,
    preserveHost: false,
  });
  proxyBase = new URL(await proxy.listen(0, '127.0.0.1'));
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

/** Write `text` on a raw socket, half-close it, and resolve with every byte received until the server ends. */
function halfClosed(base: URL, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(base.port), base.hostname, () => socket.end(text));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('no end within 10 s')), 10_000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

/** The answers in `raw`, each checked whole: its body as long as its Content-Length says. */
function answersIn(raw: string): Array<{ status: number; body: string }> {
  const out: Array<{ status: number; body: string }> = [];
  let rest = raw;
  while (rest.length > 0) {
    const head = rest.indexOf('\r\n\r\n');
    if (head === -1) throw new Error(`a cut head: ${rest.slice(0, 200)}`);
    const lines = rest.slice(0, head);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(lines)?.[1]);
    const body = rest.slice(head + 4, head + 4 + length);
    if (Number.isNaN(length) || body.length !== length) throw new Error(`a cut answer: ${lines}`);
    out.push({ status: Number(lines.split(' ')[1]), body });
    rest = rest.slice(head + 4 + length);
  }
  return out;
}

const get = (base: URL, path: string, extra = '') =>
  `GET ${base.pathname}${path} HTTP/1.1\r\nHost: ${base.host}\r\nAuthorization: Bearer pro-key\r\n${extra}\r\n`;

describe.each([
  ['the proxy', () => proxyBase],
  ['the mock', () => mockBase],
])('%s', (_name, baseOf) => {
  it('answers a GET whose client half-closed after sending it', async () => {
    const answers = answersIn(await halfClosed(baseOf(), get(baseOf(), '/categories')));
    expect(answers.map((a) => a.status)).toEqual([200]);
    expect(Array.isArray(JSON.parse(answers[0]?.body ?? ''))).toBe(true);
  });

  it('answers a slow answer (Prefer: delay) after the client half-closed', async () => {
    const text = get(baseOf(), '/categories', 'Prefer: delay=300\r\n');
    const answers = answersIn(await halfClosed(baseOf(), text));
    expect(answers.map((a) => a.status)).toEqual([200]);
  });

  it('answers a POST with its body, and two pipelined requests, in order', async () => {
    const body = '{"name":"half-closed"}';
    const post =
      `POST ${baseOf().pathname}/categories HTTP/1.1\r\nHost: ${baseOf().host}\r\n` +
      `Authorization: Bearer pro-key\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const answers = answersIn(await halfClosed(baseOf(), post + get(baseOf(), '/categories')));
    expect(answers.map((a) => a.status)).toEqual([201, 200]);
    expect(JSON.parse(answers[0]?.body ?? '')).toMatchObject({ name: 'half-closed' });
  });

  it('answers an HTTP/1.0 request (no Host), then closes', async () => {
    const text = `GET ${baseOf().pathname}/categories HTTP/1.0\r\nAuthorization: Bearer pro-key\r\n\r\n`;
    const answers = answersIn(await halfClosed(baseOf(), text));
    expect(answers.map((a) => a.status)).toEqual([200]);
  });
});

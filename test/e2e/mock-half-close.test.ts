/**
 * Issue 42: a client that half-closes after its request (`shutdown(SHUT_WR)`, as `nc -q`, some health checks and
 * HTTP/1.0 clients do) gets its full answer from the mock, a large one too. A raw socket, no HTTP client library.
 */
import net from 'node:net';
import { createMockServer, type MockServer } from '../../mock/node';

let mock: MockServer;
let slow: MockServer;
let port: number;
let slowPort: number;

beforeAll(async () => {
  const description = 'y'.repeat(9000);
  const categories = Array.from({ length: 300 }, (_, i) => ({ name: `c${i}`, description }));
  mock = await createMockServer({ seed: { categories }, quiet: true });
  port = Number(new URL(await mock.listen(0)).port);
  // An answer that comes later than the client's FIN (an injected latency, a Redis store).
  slow = await createMockServer({ seed: { categories }, quiet: true, latency: '100' });
  slowPort = Number(new URL(await slow.listen(0)).port);
});
afterAll(() => Promise.all([mock.close(), slow.close()]));

/** Send `request`, half-close, and read until the mock closes: the status, headers and body received. */
function halfClosed(request: string, to = port): Promise<{ status: number; headers: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(to, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const headers = all.subarray(0, split).toString('latin1');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]),
        headers,
        body: all.subarray(split + 4),
      });
    });
  });
}

const contentLength = (headers: string): number => Number(/\r\ncontent-length: (\d+)/i.exec(headers)?.[1]);

describe('a client that half-closes after its request', () => {
  it('gets the whole of a 2.7 MB list', async () => {
    const answer = await halfClosed(
      'GET /v1/categories HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer pro-demo-key\r\n\r\n',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(contentLength(answer.headers));
    expect((JSON.parse(answer.body.toString()) as unknown[]).length).toBe(300);
  });

  it('gets an answer that comes after its FIN (an injected latency)', async () => {
    const answer = await halfClosed(
      'GET /v1/categories HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer pro-demo-key\r\n\r\n',
      slowPort,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(contentLength(answer.headers));
  });

  it('gets the answer to a create whose body it sent before half-closing', async () => {
    const body = JSON.stringify({ name: 'half-closed' });
    const answer = await halfClosed(
      'POST /v1/categories HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer pro-demo-key\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ name: 'half-closed' });
  });

  it('gets its Error-shaped answer too (HTTP/1.0, no key)', async () => {
    const answer = await halfClosed('GET /v1/categories HTTP/1.0\r\n\r\n');
    expect(answer.status).toBe(401);
    expect(answer.body.length).toBe(contentLength(answer.headers));
    expect(JSON.parse(answer.body.toString())).toMatchObject({ code: 'unauthorized', status: 401 });
  });
});

import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { headersOf, sendHttp, withFetchDefaults } from './http';

/** A server that answers each request with what it received, or as `answer` says. */
async function echoServer(answer?: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (answer) return answer(req, res);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('sendHttp over node:http', () => {
  it.each([
    ['gzip', (b: Buffer) => zlib.gzipSync(b)],
    ['deflate', (b: Buffer) => zlib.deflateSync(b)],
    ['br', (b: Buffer) => zlib.brotliCompressSync(b)],
  ])('reads a %s-encoded answer decoded, as fetch does', async (encoding, encode) => {
    const server = await echoServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(encode(Buffer.from('{"ok":true}')));
    });
    try {
      const sent = await sendHttp({ method: 'GET', url: server.url, headers: {} }, 5000);
      expect(sent.ok && sent.text).toBe('{"ok":true}');
    } finally {
      await server.close();
    }
  });

  it('sends what fetch would send: its default headers, a text/plain type for an untyped body', async () => {
    const server = await echoServer();
    try {
      const sent = await sendHttp(
        { method: 'POST', url: server.url, headers: { Authorization: 'Bearer k' }, body: 'hé' },
        5000,
      );
      expect(sent.ok).toBe(true);
      if (!sent.ok) return;
      expect(sent.status).toBe(200);
      expect(sent.headers['content-type']).toBe('application/json');
      const seen = JSON.parse(sent.text) as { method: string; headers: Record<string, string>; body: string };
      expect(seen.method).toBe('POST');
      expect(seen.body).toBe('hé');
      expect(seen.headers).toMatchObject({
        authorization: 'Bearer k',
        accept: '*/*',
        'user-agent': 'node',
        'content-type': 'text/plain;charset=UTF-8',
        'content-length': String(Buffer.byteLength('hé')),
      });
      expect(seen.headers['accept-encoding']).toBeUndefined();
      // A type the caller sets is kept as sent.
      const typed = await sendHttp(
        { method: 'PUT', url: server.url, headers: { 'Content-Type': 'application/json' }, body: '{}' },
        5000,
      );
      expect(typed.ok && (JSON.parse(typed.text) as { headers: object }).headers).toMatchObject({
        'content-type': 'application/json',
      });
    } finally {
      await server.close();
    }
  });

  it('refuses what fetch refuses, times out, and reports a refused connection as a value', async () => {
    const server = await echoServer((_req, res) => setTimeout(() => res.end('late'), 2000).unref());
    try {
      expect(await sendHttp({ method: 'GET', url: server.url, headers: {}, body: 'x' }, 1000)).toEqual({
        ok: false,
        error: 'Request with GET/HEAD method cannot have body.',
      });
      expect(await sendHttp({ method: 'TRACE', url: server.url, headers: {} }, 1000)).toMatchObject({
        ok: false,
      });
      const started = Date.now();
      expect(await sendHttp({ method: 'GET', url: server.url, headers: {} }, 200)).toEqual({
        ok: false,
        error: 'no response within 200 ms',
      });
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await server.close();
    }
    const refused = await sendHttp({ method: 'GET', url: server.url, headers: {} }, 1000);
    expect(refused).toEqual({ ok: false, error: expect.stringContaining('ECONNREFUSED') as string });
  });

  it('reads the answer as fetch would: UTF-8 without a byte order mark', async () => {
    const server = await echoServer((_req, res) => res.end(Buffer.from('\ufeff{"a":"é"}', 'utf8')));
    try {
      const got = await sendHttp({ method: 'GET', url: server.url, headers: {} }, 5000);
      expect(got.ok && got.text).toBe('{"a":"é"}');
    } finally {
      await server.close();
    }
  });
});

describe('headersOf', () => {
  it('lower-cases and sorts names, joins repeated fields, keeps the last Set-Cookie', () => {
    expect(headersOf(['X-B', '1', 'Set-Cookie', 'a=1', 'x-b', '2', 'A', ' v ', 'set-cookie', 'b=2'])).toEqual(
      {
        a: 'v',
        'set-cookie': 'b=2',
        'x-b': '1, 2',
      },
    );
    expect(Object.keys(headersOf(['Z', '1', 'A', '2']))).toEqual(['a', 'z']);
  });
});

describe('withFetchDefaults', () => {
  it('adds only the defaults the caller has not set, whatever their case', () => {
    expect(withFetchDefaults({ Accept: 'application/json' }, false)).toEqual({
      Accept: 'application/json',
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
      'user-agent': 'node',
    });
  });
});

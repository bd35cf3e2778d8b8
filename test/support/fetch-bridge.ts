/**
 * Test plumbing: serve a fetch handler on a node:http server, so the same supertest suites run against the
 * fetch adapter as against the node adapter. The bridge only copies bytes; every decision is the adapter's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export function serveFetch(handler: (request: Request) => Promise<Response>): http.Server {
  return http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      for (const value of Array.isArray(v) ? v : v === undefined ? [] : [v]) {
        try {
          headers.append(k, value);
        } catch {
          // a header value fetch refuses: the bridge drops it
        }
      }
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && chunks.length > 0;
    const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body: hasBody ? Buffer.concat(chunks) : undefined,
    });
    const response = await handler(request);
    // A network error (an injected reset): the connection is dropped, as a server resetting it would.
    if (response.type === 'error') {
      req.socket.destroy();
      return;
    }
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => (out[name] = value));
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  });
}

/** Listen on a free port of 127.0.0.1; resolves to the origin. */
export function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

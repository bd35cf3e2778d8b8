/**
 * An upstream that fails on purpose, for the proxy's fault suite. Its mode is the first path segment after the
 * base path (`/v1/<mode>/...`), so one server serves every case:
 * - `huge`: 200 with `Content-Length` 50 MB, produced only as fast as it is read (a streamed answer);
 * - `cut`: announces 50 MB, sends 5 MB + 1 byte, then destroys the socket;
 * - `cut-small`: announces 1,000 bytes of JSON, sends 10, then destroys the socket;
 * - `silent`: never answers;
 * - `slow`: answers 200 JSON after 800 ms;
 * - anything else: 200 JSON echoing the method and the request target exactly as received.
 * It counts the sockets open to it, so a test can see the proxy left none behind.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';

export const HUGE_BYTES = 50 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

export interface FaultyUpstream {
  /** Base URL ending in /v1. */
  url: string;
  /** Sockets open to it now. */
  openSockets(): number;
  /** Request targets it received, in order. */
  targets: string[];
  close(): Promise<void>;
}

/** `bytes` of 'a', produced on demand (never more than the reader asks for). */
function lazyBody(bytes: number): Readable {
  let left = bytes;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, CHUNK.length);
      left -= n;
      this.push(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
    },
  });
}

/** Start the faulty upstream on 127.0.0.1, port 0. */
export async function startFaultyUpstream(): Promise<FaultyUpstream> {
  const sockets = new Set<Socket>();
  const targets: string[] = [];
  const server = http.createServer((req, res) => {
    targets.push(req.url ?? '');
    const mode = (req.url ?? '').split('/')[2] ?? '';
    req.resume();
    if (mode === 'huge') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': HUGE_BYTES });
      const body = lazyBody(HUGE_BYTES);
      res.once('close', () => body.destroy());
      return void body.pipe(res);
    }
    if (mode === 'cut') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': HUGE_BYTES });
      const body = lazyBody(5 * 1024 * 1024 + 1);
      body.pipe(res, { end: false });
      return void body.once('end', () => res.socket?.destroy());
    }
    if (mode === 'cut-small') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
      res.write('[{"id":1,');
      return void setTimeout(() => res.socket?.destroy(), 20);
    }
    if (mode === 'silent') return;
    if (mode === 'slow')
      return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 800);
    const body = JSON.stringify({ method: req.method, target: req.url });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    openSockets: () => sockets.size,
    targets,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

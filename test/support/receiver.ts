/** A receiving server on 127.0.0.1 for callbacks and webhooks: records what arrives (raw body bytes included). */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  raw: Buffer;
  body: string;
}

export interface Receiver {
  got: Received[];
  origin: string;
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1 and answers each request with `answer` (which may never answer). */
export async function receiver(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Receiver> {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      got.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw,
        body: raw.toString(),
      });
      answer(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    got,
    origin,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

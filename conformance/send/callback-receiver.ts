/**
 * The runner's callback receiver (`--callbacks-listen PORT`, issue 33): an HTTP server on 127.0.0.1 that records
 * every request that arrives and answers `200` with no body. Bounded: a body over `maxBodyBytes` is answered
 * `413` and recorded without its body; after `maxArrivals` requests every further one is answered `503` and only
 * counted; a request must arrive whole within `requestTimeoutMs`; the server lives as long as the run (closed at
 * its end, connections cut). Judging what arrived is the check's (conformance/callbacks/check.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  method: string;
  /** The request target as received (path and query). */
  path: string;
  headers: Record<string, string | undefined>;
  /** The body's text; '' when none or when it was over the bound (`tooLarge`). */
  body: string;
  tooLarge?: boolean;
  /** ms since the epoch. */
  at: number;
}

export interface ReceiverLimits {
  maxBodyBytes: number;
  maxArrivals: number;
  requestTimeoutMs: number;
}

export const RECEIVER_DEFAULTS: ReceiverLimits = {
  maxBodyBytes: 1024 * 1024,
  maxArrivals: 1000,
  requestTimeoutMs: 10_000,
};

export interface Receiver {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** Everything recorded so far, in arrival order. */
  arrivals(): readonly Arrival[];
  /** Requests answered 503 because `maxArrivals` were recorded already. */
  dropped(): number;
  /** Resolves when `done(arrivals)` holds or after `ms`, whichever comes first. */
  waitFor(done: (arrivals: readonly Arrival[]) => boolean, ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Start a receiver on 127.0.0.1:`port` (0: a free port). Rejects when the port cannot be listened on. */
export async function startReceiver(port: number, limits: Partial<ReceiverLimits> = {}): Promise<Receiver> {
  const l: ReceiverLimits = { ...RECEIVER_DEFAULTS, ...limits };
  const got: Arrival[] = [];
  let dropped = 0;
  const waiters = new Set<() => void>();
  const record = (a: Arrival) => {
    got.push(a);
    for (const w of waiters) w();
  };
  const server = http.createServer((req, res) => {
    if (got.length >= l.maxArrivals) {
      dropped++;
      res.writeHead(503, { Connection: 'close' }).end();
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > l.maxBodyBytes) over = true;
      else chunks.push(c);
    });
    req.on('end', () => {
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      record({
        method: req.method ?? '',
        path: req.url ?? '/',
        headers,
        body: over ? '' : Buffer.concat(chunks).toString('utf8'),
        ...(over ? { tooLarge: true } : {}),
        at: Date.now(),
      });
      res.writeHead(over ? 413 : 200, { 'Content-Length': '0' }).end();
    });
    req.on('error', () => res.destroy());
  });
  server.requestTimeout = l.requestTimeoutMs;
  server.headersTimeout = Math.min(l.requestTimeoutMs, 60_000);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    arrivals: () => got,
    dropped: () => dropped,
    waitFor(done, ms) {
      if (done(got)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const check = () => {
          if (done(got)) finish();
        };
        const timer = setTimeout(finish, ms);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the run's receiver hands out and what its checks have judged. */
export interface CallbackReceiving {
  receiver: Receiver;
  waitMs: number;
  /** Path prefixes handed out, in order. */
  handedOut: string[];
  /** Arrivals a check has judged already. */
  judged: Set<Arrival>;
  /** When the last request naming the receiver was answered (ms since the epoch); 0 before any. */
  lastTriggerAt: number;
}

/** A fresh receiving state for a run. */
export function createReceiving(receiver: Receiver, waitMs: number): CallbackReceiving {
  return { receiver, waitMs, handedOut: [], judged: new Set(), lastTriggerAt: 0 };
}

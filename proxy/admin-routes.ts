/** The proxy's own routes under `/_mock/`: this machine only, as the mock's admin routes are without a token. */
import type http from 'node:http';
import type { Judge } from './judge/judge';
import type { createExchangeLog } from './exchange-log';
import { sendOwn } from './exchange';
import type { OwnAnswers } from './own-answers';

/** What the admin routes read. */
export interface AdminContext {
  judge: Judge;
  log: ReturnType<typeof createExchangeLog>;
  answers: OwnAnswers;
  /** Writes the `--report` files (`POST /_mock/report`). */
  onReport?: () => string[];
}

/** Answer `GET /_mock/violations`, `GET /_mock/exchanges`, `POST /_mock/report`; else a 404 (403 off this machine). */
export function adminRoute(
  c: AdminContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
): void {
  const json = (status: number, value: unknown): void =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const own = (status: number, code: 'forbidden' | 'not_found', message: string) =>
    sendOwn(
      res,
      c.answers.render(undefined, status, code, message, {
        headers: req.headers,
        address: req.socket.remoteAddress ?? '',
      }),
      0,
    );
  req.resume();
  if (!isLoopback(req.socket.remoteAddress))
    return own(403, 'forbidden', 'the proxy routes answer this machine only');
  if (path === '/_mock/violations' && req.method === 'GET') return json(200, c.judge.snapshot());
  if (path === '/_mock/exchanges' && req.method === 'GET') return json(200, c.log.snapshot());
  if (path === '/_mock/report' && req.method === 'POST') return json(200, { written: c.onReport?.() ?? [] });
  return own(404, 'not_found', `no proxy route at ${path.slice(0, 200)}`);
}

const isLoopback = (address: string | undefined) =>
  address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';

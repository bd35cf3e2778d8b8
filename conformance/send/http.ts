/** One HTTP exchange with a timeout, over a fetch (global by default); transport failures are values. */
import type { FetchLike } from '../types';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export type HttpResult =
  { ok: true; status: number; headers: Record<string, string>; text: string } | { ok: false; error: string };

const globalFetch: FetchLike = (request) => fetch(request);

/** Send a request; a refused connection, a DNS failure or a timeout comes back as `{ ok: false }`. */
export async function sendHttp(
  req: HttpRequest,
  timeoutMs: number,
  fetchFn: FetchLike = globalFetch,
): Promise<HttpResult> {
  try {
    const request = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const res = await withTimeout(fetchFn(request), timeoutMs);
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    return { ok: true, status: res.status, headers, text: await res.text() };
  } catch (err) {
    return { ok: false, error: describeFetchError(err, timeoutMs) };
  }
}

/** An in-process handler may ignore the abort signal; the timeout holds anyway. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no response within ${timeoutMs} ms`;
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message ?? 'request failed'} (${cause})` : (e.message ?? String(err));
}

/** One HTTP exchange with a timeout, over a fetch (global by default); transport failures are values. */
import type { FetchLike } from '../types';
import { streamKindOf, wholeItems, type StreamKind } from '../../spec/http/stream-format';

/**
 * A stream (SSE, JSON Lines: issue 33) may never end: it is read this long at most, or this many bytes, and
 * judged by the whole items that came.
 */
export const STREAM_WINDOW_MS = 2000;
export const STREAM_MAX_BYTES = 1 << 20;

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
    const kind = streamKindOf(headers['content-type'] ?? '');
    const text =
      kind && res.body
        ? await readWindow(res.body, kind, Math.min(timeoutMs, STREAM_WINDOW_MS))
        : await res.text();
    return { ok: true, status: res.status, headers, text };
  } catch (err) {
    return { ok: false, error: describeFetchError(err, timeoutMs) };
  }
}

/** A stream's body until it ends, or its whole items when the window closes or the bytes reach the cap. */
async function readWindow(
  body: ReadableStream<Uint8Array>,
  kind: StreamKind,
  windowMs: number,
): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const closed = new Promise<'window'>((resolve) => (timer = setTimeout(() => resolve('window'), windowMs)));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), closed]);
      if (next === 'window') break;
      if (next.done) return text + decoder.decode();
      bytes += next.value.byteLength;
      text += decoder.decode(next.value, { stream: true });
      if (bytes >= STREAM_MAX_BYTES) break;
    }
  } finally {
    clearTimeout(timer);
  }
  void reader.cancel().catch(() => undefined);
  return wholeItems(kind, text);
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

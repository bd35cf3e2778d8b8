/**
 * One HTTP exchange with a timeout; transport failures are values. By default over `node:http`/`node:https` with
 * a bounded keep-alive pool; over a fetch when one is given (an in-process handler).
 *
 * Why not the global fetch by default: undici's fetch allocates several times what an exchange needs (WHATWG
 * streams, Headers, Request and Response objects) and loads about 8 MB of modules. 16,000 GETs at concurrency 2
 * peaked at 143 MB RSS over fetch and 53 MB over node:http, three times faster (issue 29, docs/large-documents.md).
 * The request a server sees is the one fetch would send: the same method, URL, headers and body, with the
 * headers fetch adds (`Accept`, `Accept-Language`, `Sec-Fetch-Mode`, `User-Agent` and, for a body without one,
 * `Content-Type: text/plain;charset=UTF-8`), but no `Accept-Encoding`: answers come uncompressed.
 */
import zlib from 'node:zlib';
import http from 'node:http';
import https from 'node:https';
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

/** Open connections per origin: the runner sends at most `--concurrency` at a time, quota bursts a few more. */
const MAX_SOCKETS = 32;
/** Idle connections kept per origin (unref'd: they never keep the process alive). */
const MAX_FREE_SOCKETS = 8;

let agents: { http: http.Agent; https: https.Agent } | undefined;
const agentsOf = () =>
  (agents ??= {
    http: new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, maxFreeSockets: MAX_FREE_SOCKETS }),
    https: new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, maxFreeSockets: MAX_FREE_SOCKETS }),
  });

/** Send a request; a refused connection, a DNS failure or a timeout comes back as `{ ok: false }`. */
export function sendHttp(req: HttpRequest, timeoutMs: number, fetchFn?: FetchLike): Promise<HttpResult> {
  return fetchFn ? sendFetch(req, timeoutMs, fetchFn) : sendNode(req, timeoutMs);
}

const FETCH_DEFAULTS = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
] as const;
/** Methods fetch refuses to send, and those that carry no body. */
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);
const BODILESS = new Set(['GET', 'HEAD']);

/** The headers fetch adds when the caller has not set them (names compared case-insensitively). */
export function withFetchDefaults(headers: Record<string, string>, hasBody: boolean): Record<string, string> {
  const out = { ...headers };
  const has = (name: string) => Object.keys(out).some((n) => n.toLowerCase() === name);
  for (const [name, value] of FETCH_DEFAULTS) if (!has(name)) out[name] = value;
  if (hasBody && !has('content-type')) out['content-type'] = 'text/plain;charset=UTF-8';
  return out;
}

/**
 * The response headers as fetch's `Headers` gives them: names lower-cased and in order, repeated fields joined
 * with `, `, `Set-Cookie` its last value (what `forEach` into an object leaves).
 */
export function headersOf(raw: readonly string[]): Record<string, string> {
  const joined = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!.trim();
    const before = joined.get(name);
    joined.set(name, before === undefined || name === 'set-cookie' ? value : `${before}, ${value}`);
  }
  const out: Record<string, string> = {};
  for (const name of [...joined.keys()].sort()) out[name] = joined.get(name)!;
  return out;
}

function sendNode(req: HttpRequest, timeoutMs: number): Promise<HttpResult> {
  return new Promise((resolve) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    // One deadline for the whole exchange, the body included (as fetch's abort signal).
    const timer = setTimeout(() => {
      finish({ ok: false, error: `no response within ${timeoutMs} ms` });
      request?.destroy();
    }, timeoutMs);
    const finish = (result: HttpResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let url: URL;
    try {
      url = new URL(req.url);
    } catch (err) {
      finish({ ok: false, error: (err as Error).message });
      return;
    }
    // Refused as fetch refuses them, so that a run judges the same whichever transport it takes.
    const method = req.method.toUpperCase();
    if (FORBIDDEN.has(method))
      return finish({ ok: false, error: `'${req.method}' HTTP method is unsupported.` });
    if (BODILESS.has(method) && req.body !== undefined)
      return finish({ ok: false, error: 'Request with GET/HEAD method cannot have body.' });
    const secure = url.protocol === 'https:';
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const headers = withFetchDefaults(req.headers, body !== undefined);
    if (body !== undefined) headers['content-length'] = String(body.length);
    try {
      request = (secure ? https : http).request(url, {
        method: req.method,
        headers,
        agent: secure ? agentsOf().https : agentsOf().http,
      });
    } catch (err) {
      // An invalid method or header value: what fetch would refuse too.
      finish({ ok: false, error: (err as Error).message });
      return;
    }
    request.on('error', (err: NodeJS.ErrnoException) =>
      finish({ ok: false, error: err.code ? `request failed (${err.code})` : err.message }),
    );
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      const done = (cut?: StreamKind) => {
        clearTimeout(windowTimer);
        // As fetch's text(): UTF-8, a leading byte order mark dropped.
        const whole = Buffer.concat(chunks).toString('utf8');
        const text = cut ? wholeItems(cut, whole) : whole;
        finish({
          ok: true,
          status: res.statusCode ?? 0,
          headers: headersOf(res.rawHeaders),
          text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text,
        });
        if (cut) res.destroy();
      };
      // A stream may never end: read for a window, then judged by its whole items (see STREAM_WINDOW_MS).
      const kind = streamKindOf(String(res.headers['content-type'] ?? ''));
      const windowTimer = kind
        ? setTimeout(() => done(kind), Math.min(timeoutMs, STREAM_WINDOW_MS))
        : undefined;
      // A compressed answer is read as fetch reads it: decoded (gzip, deflate, br), whatever was asked for.
      const decoder = decoderFor(String(res.headers['content-encoding'] ?? ''));
      const source: NodeJS.ReadableStream = decoder ? res.pipe(decoder) : res;
      source.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        bytes += chunk.length;
        if (kind && bytes >= STREAM_MAX_BYTES) done(kind);
      });
      res.on('error', (err) => finish({ ok: false, error: err.message }));
      decoder?.on('error', (err) => finish({ ok: false, error: `answer not decodable: ${err.message}` }));
      source.on('end', () => done());
    });
    request.end(body);
  });
}

/** A decoder for a Content-Encoding fetch would decode, or undefined (identity or unknown: read as sent). */
function decoderFor(encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  const e = encoding.trim().toLowerCase();
  if (e === 'gzip' || e === 'x-gzip') return zlib.createGunzip();
  if (e === 'deflate') return zlib.createInflate();
  if (e === 'br') return zlib.createBrotliDecompress();
  return undefined;
}

async function sendFetch(req: HttpRequest, timeoutMs: number, fetchFn: FetchLike): Promise<HttpResult> {
  // A timer cleared when the exchange ends, not AbortSignal.timeout: that one keeps the request, the response and
  // everything reachable from them alive until it fires.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(timeoutError()), timeoutMs);
  try {
    const request = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: 'manual',
      signal: abort.signal,
    });
    const res = await withTimeout(fetchFn(request), abort.signal);
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
  } finally {
    clearTimeout(timer);
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

const timeoutError = () => Object.assign(new Error('timeout'), { name: 'TimeoutError' });

/** An in-process handler may ignore the abort signal; the timeout holds anyway. */
function withTimeout<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  let onAbort = () => {};
  const timeout = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, timeout]).finally(() => signal.removeEventListener('abort', onAbort));
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no response within ${timeoutMs} ms`;
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message ?? 'request failed'} (${cause})` : (e.message ?? String(err));
}

/** One HTTP exchange with a timeout, over Node's global fetch; transport failures are values. */

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export type HttpResult =
  { ok: true; status: number; headers: Record<string, string>; text: string } | { ok: false; error: string };

/** Send a request; a refused connection, a DNS failure or a timeout comes back as `{ ok: false }`. */
export async function sendHttp(req: HttpRequest, timeoutMs: number): Promise<HttpResult> {
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    return { ok: true, status: res.status, headers, text: await res.text() };
  } catch (err) {
    return { ok: false, error: describeFetchError(err, timeoutMs) };
  }
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no response within ${timeoutMs} ms`;
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message ?? 'request failed'} (${cause})` : (e.message ?? String(err));
}

/**
 * A hand-written server of fixtures/specs/params-forms-31.yaml (no ajv, no framework), faithful unless told a
 * fault: the issue-39 classes a real server shows (a number path value parsed leniently, a boolean query value
 * ignored, a 500 on deleting an unknown id, JSON taken where the document says multipart).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ParamsFault = 'lenient-integer' | 'boolean-ignored' | 'delete-unknown-500' | 'upload-takes-json';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** What a multipart upload must carry: a file part with a filename (what a form-data client sends). */
const hasFilePart = (type: string, body: string): boolean =>
  type.startsWith('multipart/form-data; boundary=') &&
  /Content-Disposition: form-data; name="file"; filename="[^"]+"/.test(body);

/** Each request's answer: [status, JSON body or undefined]. */
function answer(
  method: string,
  url: URL,
  type: string,
  body: string,
  fault?: ParamsFault,
): [number, unknown?] {
  const seg = url.pathname.split('/').slice(1).map(decodeURIComponent);
  const q = url.searchParams;
  if (method === 'GET' && seg[0] === 'calc' && seg.length === 4) {
    const [, op, a, b] = seg as [string, string, string, string];
    const bOk = fault === 'lenient-integer' ? !Number.isNaN(parseInt(b, 10)) : /^\d+$/.test(b);
    if (!['add', 'mul'].includes(op) || a.trim() === '' || Number.isNaN(Number(a)) || !bOk) return [400];
    const n = parseInt(b, 10);
    return n > 100 ? [400] : [200, { result: op === 'add' ? Number(a) + n : Number(a) * n }];
  }
  if (method === 'GET' && url.pathname === '/widgets') {
    const active = q.get('active');
    if (active !== null && !['true', 'false'].includes(active) && fault !== 'boolean-ignored') return [400];
    const sort = q.get('sort');
    if (sort !== null && !['asc', 'desc'].includes(sort)) return [400];
    const since = q.get('since');
    if (since !== null && !DATE_TIME.test(since)) return [400];
    const label = q.get('label');
    if (label !== null && !/^[a-z]+=[a-z]+$/.test(label)) return [400];
    return [200, []];
  }
  if (seg[0] === 'widgets' && seg.length === 2 && (method === 'GET' || method === 'DELETE')) {
    if (!UUID.test(seg[1] ?? '')) return [400];
    return method === 'DELETE' && fault === 'delete-unknown-500' ? [500] : [404];
  }
  if (method === 'POST' && url.pathname === '/uploads') {
    if (fault === 'upload-takes-json' && type === 'application/json') return [200, { stored: 1 }];
    return hasFilePart(type, body) ? [200, { stored: 1 }] : [415];
  }
  if (method === 'POST' && url.pathname === '/subscriptions')
    return type === 'application/x-www-form-urlencoded' && /(^|&)email=[^&]+%40/.test(body) ? [204] : [400];
  if (method === 'PUT' && url.pathname === '/raw') return type === 'application/xml' ? [204] : [415];
  if (method === 'GET' && url.pathname === '/health') return [200, { ok: true }];
  return [404];
}

/** Start the server on 127.0.0.1, port 0; `close()` stops it. */
export async function startParamsServer(
  fault?: ParamsFault,
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const type = req.headers['content-type'] ?? '';
      const body = Buffer.concat(chunks).toString();
      seen.push(`${req.method ?? ''} ${url.pathname} ${type.split(';')[0] ?? ''}`);
      const [status, json] = answer(req.method ?? 'GET', url, type, body, fault);
      if (json === undefined) return void res.writeHead(status).end();
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

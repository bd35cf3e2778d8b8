/** The HTTP adapter: node:http request in, pipeline, bytes out. No framework on the hot path. */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Deps, MockRequest } from './context';
import { runPipeline } from './pipeline';
import { toHttpResponse } from './stages/respond';

/** Read the body, keeping at most `limit` bytes; a larger body is flagged, not buffered. */
export function readBody(
  req: IncomingMessage,
  limit: number,
): Promise<{ body: Buffer; tooLarge: boolean } | null> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume(); // discard; the 413 closes the connection
    return Promise.resolve({ body: Buffer.alloc(0), tooLarge: true });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
      } else if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () =>
      resolve({ body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), tooLarge }),
    );
    req.on('error', () => resolve(null));
    req.on('aborted', () => resolve(null));
  });
}

/**
 * Build the request listener over fully built dependencies, or over a holder whose `current` --watch swaps:
 * each request reads it once, so it sees one version of the spec and keys from start to end.
 */
export function createApp(source: Deps | { current: Deps }): RequestListener {
  return async function petstoreMock(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const deps = 'current' in source ? source.current : source;
    const started = performance.now();
    const read = await readBody(req, deps.config.maxBodyBytes);
    if (!read) return; // the client went away
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const mockReq: MockRequest = {
      method: req.method ?? 'GET',
      path: q === -1 ? url : url.slice(0, q),
      headers: req.headers,
      remoteAddress: req.socket.remoteAddress ?? 'unknown',
      body: read.body,
      bodyTooLarge: read.tooLarge,
    };
    const { reply, ctx, error } = await runPipeline(mockReq, deps);
    if (error) {
      deps.log.event('error', 'unhandled error in a stage', {
        method: mockReq.method,
        path: mockReq.path,
        caller: ctx.identity?.label,
        error: error instanceof Error ? error.stack : String(error),
      });
    }
    const out = toHttpResponse(reply, ctx, deps);
    res.writeHead(out.status, out.headers);
    if (reply.stream) reply.stream(res);
    else res.end(out.body);
    deps.log.request({
      method: mockReq.method,
      path: mockReq.path,
      status: out.status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      caller: ctx.identity?.label ?? 'unknown',
    });
  };
}

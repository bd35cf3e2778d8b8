/**
 * The last step: turn a reply into status, headers and bytes. An error of the catalogue is rendered in the
 * document's error shape for its status; every answer carries the rate-limit headers (§8), CORS for allowed
 * origins, and the deprecation headers of a deprecated operation (§9.3).
 */
import type { Ctx, Deps, Reply } from '../context';
import { encodeUtf8 } from '../utf8';
import { corsHeaders } from '../cors-headers';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | number>;
  body: Uint8Array;
}

const EMPTY = new Uint8Array(0);

/** Pure apart from reading config: the bytes and headers for `reply`. */
export function toHttpResponse(reply: Reply, ctx: Ctx, deps: Pick<Deps, 'config' | 'errors'>): HttpResponse {
  let contentType = reply.contentType ?? 'application/json';
  let body = reply.raw ?? EMPTY;
  if (reply.error) {
    const rendered = deps.errors.renderBytes(ctx.operation, reply.status, reply.error);
    contentType = rendered.contentType;
    body = rendered.body;
  } else if (!reply.raw && reply.body !== undefined && reply.status !== 204) {
    body = encodeUtf8(JSON.stringify(reply.body));
  }
  // Assigned one by one (no spreads): this runs for every response. A 204 or 304 never has a body, and an
  // answer documented without content has none: neither has a media type (issue 21: `res.json()` must not
  // be promised a body that is not there).
  const never = reply.status === 204 || reply.status === 304;
  if (never) body = EMPTY;
  const bodiless = never || (!reply.error && reply.raw === undefined && reply.body === undefined);
  const headers: Record<string, string | number> = bodiless ? {} : { 'Content-Type': contentType };
  Object.assign(headers, ctx.limitHeaders);
  const origin = ctx.req.headers.origin;
  if (typeof origin === 'string' && reply.cors !== false)
    Object.assign(headers, corsHeaders(deps.config, origin));
  if (ctx.operation?.deprecated) Object.assign(headers, deprecationHeaders(ctx, deps));
  if (reply.headers) Object.assign(headers, reply.headers);
  // A string, as it goes on the wire: Node checks a number's characters only after converting it, the slow way.
  if (!reply.stream && !never) headers['Content-Length'] = String(body.length);
  return { status: reply.status, headers, body };
}

function deprecationHeaders(ctx: Ctx, deps: Pick<Deps, 'config'>): Record<string, string> {
  const op = ctx.operation;
  if (!op?.deprecated) return {};
  const out: Record<string, string> = { Deprecation: 'true' };
  const sunset = deps.config.sunset ?? op.sunset;
  if (sunset) out.Sunset = new Date(sunset).toUTCString();
  if (deps.config.successorLink) out.Link = `<${deps.config.successorLink}>; rel="successor-version"`;
  return out;
}

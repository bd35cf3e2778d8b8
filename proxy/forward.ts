/** Forwarding one request to the upstream: hop-by-hop headers dropped, X-Forwarded-* added, Host rewritten. */
import http from 'node:http';
import https from 'node:https';

/** RFC 9110 §7.6.1: headers that belong to one connection, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const NONE: readonly string[] = [];

/** Headers to send upstream: the client's, minus hop-by-hop ones (and those `Connection` names). */
export function forwardHeaders(
  incoming: http.IncomingHttpHeaders,
  upstream: URL,
  clientAddress: string,
  preserveHost: boolean,
  proto: string,
): http.OutgoingHttpHeaders {
  const connection = incoming.connection;
  const named = connection ? connection.split(',').map((s) => s.trim().toLowerCase()) : NONE;
  const out: http.OutgoingHttpHeaders = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || HOP_BY_HOP.has(name) || named.includes(name)) continue;
    out[name] = value;
  }
  const prior = incoming['x-forwarded-for'];
  out['x-forwarded-for'] = prior ? `${String(prior)}, ${clientAddress}` : clientAddress;
  out['x-forwarded-proto'] = proto;
  if (incoming.host) out['x-forwarded-host'] = incoming.host;
  if (!preserveHost) out.host = upstream.host;
  return out;
}

/** Response headers to send back to the client: the upstream's, minus hop-by-hop ones. */
export function backwardHeaders(incoming: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

/**
 * Pure: the path and query of a request target exactly as sent (`?` kept with the query), never normalised:
 * `/v1/./x` and `/v1/../../etc/passwd` stay as they are. The absolute form (`GET http://host/v1/x`) is accepted.
 */
export function splitTarget(target: string): { path: string; search: string } {
  const url = target.startsWith('/') ? target : target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
  const q = url.indexOf('?');
  return q === -1 ? { path: url, search: '' } : { path: url.slice(0, q), search: url.slice(q) };
}

/** What every request to one upstream shares: worked out once, not per request. */
const upstreamParts = new WeakMap<URL, { protocol: string; hostname: string; port: string; base: string }>();

/** Pure: where to send a client path: the upstream's host and its path with the client's rest and query as sent. */
export function upstreamOptions(
  upstream: URL,
  rest: string,
  search: string,
): { protocol: string; hostname: string; port: string; path: string } {
  let parts = upstreamParts.get(upstream);
  if (!parts)
    upstreamParts.set(
      upstream,
      (parts = {
        protocol: upstream.protocol,
        // `[::1]` in a URL, `::1` to connect to.
        hostname: upstream.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: upstream.port,
        base: upstream.pathname.replace(/\/$/, ''),
      }),
    );
  const local = rest.startsWith('/') || rest === '' ? rest : `/${rest}`;
  const { protocol, hostname, port, base } = parts;
  return { protocol, hostname, port, path: `${base}${local}${search}` || '/' };
}

/** `http.request` or `https.request`, by the upstream's scheme. */
export const requestFor = (url: URL) => (url.protocol === 'https:' ? https.request : http.request);

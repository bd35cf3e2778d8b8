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

/** Headers to send upstream: the client's, minus hop-by-hop ones (and those `Connection` names). */
export function forwardHeaders(
  incoming: http.IncomingHttpHeaders,
  upstream: URL,
  clientAddress: string,
  preserveHost: boolean,
  proto: string,
): http.OutgoingHttpHeaders {
  const named = String(incoming.connection ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase());
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
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
  for (const [name, value] of Object.entries(incoming))
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/** The upstream URL of a client path: the path after the document's base path appended to the upstream's. */
export function upstreamUrl(upstream: URL, rest: string, search: string): URL {
  const base = upstream.pathname.replace(/\/$/, '');
  const url = new URL(upstream.href);
  url.pathname = `${base}${rest.startsWith('/') || rest === '' ? rest : `/${rest}`}`;
  url.search = search;
  return url;
}

/** `http.request` or `https.request`, by the upstream's scheme. */
export const requestFor = (url: URL) => (url.protocol === 'https:' ? https.request : http.request);

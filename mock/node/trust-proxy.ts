/**
 * `--trust-proxy LIST` (issue 13): which peers may tell us the client's address in `X-Forwarded-For`.
 * Behind a balancer every request comes from the balancer's address, so per-address limits would count
 * everybody as one caller; but the header is written by whoever sends the request, so it is believed only
 * when the peer is a proxy we were told to trust, and only up to the first hop that is not one of ours.
 */
import { BlockList, isIP } from 'node:net';

/** Named ranges, as Express's proxy-addr names them. */
const NAMED: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

export interface TrustList {
  /** As given (for messages); empty: no proxy is trusted and the header is never read. */
  readonly entries: readonly string[];
  readonly blocks: BlockList;
}

export type TrustListResult = { ok: true; list: TrustList } | { ok: false; error: string };

const family = (ip: string): 'ipv4' | 'ipv6' => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

/** Add one IP, CIDR or range name to `blocks`; an error message when it is none of these. */
function addEntry(blocks: BlockList, entry: string): string | null {
  const named = NAMED[entry];
  if (named) {
    for (const range of named) addEntry(blocks, range);
    return null;
  }
  const [ip = '', prefix, extra] = entry.split('/');
  const version = isIP(ip);
  if (version === 0 || extra !== undefined) return `"${entry}" is not an IP address, a CIDR or a range name`;
  if (prefix === undefined) {
    blocks.addAddress(ip, family(ip));
    return null;
  }
  const bits = Number(prefix);
  const max = version === 4 ? 32 : 128;
  if (!/^\d+$/.test(prefix) || bits > max) return `"${entry}" has a prefix length outside 0-${max}`;
  blocks.addSubnet(ip, bits, family(ip));
  return null;
}

/** Parse `--trust-proxy` entries (IPs, CIDRs, `loopback`, `linklocal`, `uniquelocal`) into a TrustList. */
export function parseTrustList(entries: readonly string[]): TrustListResult {
  const blocks = new BlockList();
  for (const entry of entries) {
    const error = addEntry(blocks, entry);
    if (error) return { ok: false, error: `--trust-proxy: ${error}` };
  }
  return { ok: true, list: { entries: [...entries], blocks } };
}

/** One X-Forwarded-For element as a bare IP: trimmed, without a port or brackets; null when it is not an IP. */
export function bareAddress(element: string): string | null {
  let s = element.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) s = bracketed[1] ?? '';
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.indexOf(':'));
  return isIP(s) === 0 ? null : s;
}

const isTrusted = (ip: string, trusted: TrustList): boolean => trusted.blocks.check(ip, family(ip));

/** One address or X-Forwarded-For element: the bare IP in it (null: none), and whether that IP is trusted. */
interface Hop {
  ip: string | null;
  trusted: boolean;
}

/** Elements remembered per list, and the longest one remembered (an IPv6 address with a port fits). */
const REMEMBERED = 4096;
const REMEMBERED_LENGTH = 64;
const remembered = new WeakMap<TrustList, Map<string, Hop>>();

/**
 * What `element` is, remembered for the next request from the same addresses: a BlockList check builds a
 * native SocketAddress each time (microseconds, more than the rest of a request's routing and counting).
 */
function hopOf(element: string, trusted: TrustList): Hop {
  let known = remembered.get(trusted);
  if (!known) remembered.set(trusted, (known = new Map()));
  let hop = known.get(element);
  if (hop) return hop;
  const ip = bareAddress(element);
  hop = { ip, trusted: ip !== null && isTrusted(ip, trusted) };
  if (element.length <= REMEMBERED_LENGTH) {
    if (known.size >= REMEMBERED) known.clear();
    known.set(element, hop);
  }
  return hop;
}

/**
 * The client's address: the peer itself unless the peer is a trusted proxy; then the right-most address of
 * X-Forwarded-For that is not a trusted proxy (each trusted hop vouches only for the one before it). A
 * malformed element stops the walk at the last hop we could vouch for. Pure.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: TrustList): string {
  if (forwardedFor === undefined || trusted.entries.length === 0) return peer;
  // The peer is a bare IP (isIP) that is trusted; bareAddress leaves a bare IP as it is.
  const from = hopOf(peer, trusted);
  if (from.ip !== peer || !from.trusted) return peer;
  const hops = forwardedFor.split(',');
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hopOf(hops[i] ?? '', trusted);
    if (hop.ip === null) return client;
    client = hop.ip;
    if (!hop.trusted) return hop.ip;
  }
  return client;
}

const parsed = new WeakMap<readonly string[], TrustList>();

/**
 * What the HTTP adapter calls per request: the peer unchanged when no proxy is trusted (the usual case costs
 * one length check), else clientAddress with the list parsed once per config (the config is frozen).
 */
export function remoteAddressOf(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustProxy: readonly string[],
): string {
  const address = peer ?? 'unknown';
  if (trustProxy.length === 0 || forwardedFor === undefined) return address;
  let list = parsed.get(trustProxy);
  if (!list) {
    const result = parseTrustList(trustProxy);
    if (!result.ok) return address; // config.ts refuses such a list at start-up; never trust a bad one
    list = result.list;
    parsed.set(trustProxy, list);
  }
  // Node joins repeated X-Forwarded-For headers with ", " already; an array only comes from tests.
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  return clientAddress(address, header, list);
}

/** The address function of the node adapter for `list` (the socket's address when the list is empty). */
export function clientAddressOf(
  list: readonly string[],
): (peer: string, forwardedFor: string | undefined) => string {
  return (peer, forwardedFor) => remoteAddressOf(peer, forwardedFor, list);
}

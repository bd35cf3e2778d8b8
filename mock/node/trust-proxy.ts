/**
 * `--trust-proxy LIST`: behind a balancer every request comes from the balancer's address. The client address is
 * taken from `X-Forwarded-For` only when the peer is a listed proxy, and then it is the right-most address that
 * is not itself a listed proxy (the left part of the header is whatever the client wrote). Entries are IPs,
 * IPv4 CIDRs or `loopback`.
 */
import { BlockList, isIP } from 'node:net';

/** Pure: a matcher for the trusted proxies of `list`; an unusable entry is an error naming it. */
export function trustList(
  list: readonly string[],
): { ok: true; trusted: (ip: string) => boolean } | { ok: false; error: string } {
  const block = new BlockList();
  for (const raw of list) {
    const entry = raw.trim();
    if (entry === 'loopback') {
      block.addSubnet('127.0.0.0', 8, 'ipv4');
      block.addAddress('::1', 'ipv6');
      continue;
    }
    const [ip = '', bits] = entry.split('/');
    const family = isIP(ip);
    if (!family)
      return { ok: false, error: `--trust-proxy: "${entry}" is not an IP address, a CIDR or loopback` };
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) block.addAddress(ip, type);
    else if (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
      block.addSubnet(ip, Number(bits), type);
    else return { ok: false, error: `--trust-proxy: "${entry}" has a bad prefix length` };
  }
  const trusted = (raw: string): boolean => {
    const ip = raw.replace(/^::ffff:(?=\d+\.)/i, '');
    const family = isIP(ip);
    return family !== 0 && block.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  };
  return { ok: true, trusted };
}

/** Pure: the client address of a request from `peer` carrying `forwardedFor`. */
export function clientAddress(
  peer: string,
  forwardedFor: string | undefined,
  trusted: (ip: string) => boolean,
): string {
  if (!forwardedFor || !trusted(peer)) return peer;
  const hops = forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!isIP(hop.replace(/^::ffff:(?=\d+\.)/i, ''))) return peer;
    if (!trusted(hop)) return hop;
  }
  return hops[0] ?? peer;
}

/** The address function of the node adapter for `list` (the socket's address when the list is empty). */
export function clientAddressOf(
  list: readonly string[],
): (peer: string, forwardedFor: string | undefined) => string {
  if (list.length === 0) return (peer) => peer;
  const parsed = trustList(list);
  if (!parsed.ok) throw new Error(parsed.error);
  return (peer, forwardedFor) => clientAddress(peer, forwardedFor, parsed.trusted);
}

/**
 * Where a mock or a proxy may send a request a client's document values name (callbacks, webhooks, the proxy's
 * callback relay): `--callback-hosts`, loopback by default, never an arbitrary host a request names on a shared
 * machine. Pure; shared by mock/node/callbacks.ts and proxy/callback-relay.ts.
 */
import { isIP } from 'node:net';

export const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1' || /^::ffff:127\./i.test(host);

/** Pure: why `url` may not be called with these allowed hosts, or undefined when it may. */
export function targetProblem(url: string, hosts: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${url.slice(0, 200)} is not an absolute URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${parsed.protocol} is not http or https`;
  if (parsed.username || parsed.password) return 'a callback URL may not carry credentials';
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  for (const allowed of hosts) {
    const a = allowed.trim().toLowerCase();
    if (a === 'loopback' && isLoopbackHost(host)) return undefined;
    const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(a);
    const name = m?.[1];
    if (name && name === host && (!m?.[2] || m[2] === port)) return undefined;
  }
  return `host ${host} is not allowed (--callback-hosts ${hosts.join(',')})`;
}

/** Pure: why a --callback-hosts list cannot be used, or undefined. */
export function callbackHostsProblem(hosts: readonly string[]): string | undefined {
  for (const h of hosts) {
    if (h === 'loopback') continue;
    const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(h);
    const name = m?.[1] ?? '';
    if (!m || (!isIP(name) && !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(name)) || name.includes('*'))
      return `--callback-hosts: "${h}" is no host name, IP address or loopback (no wildcards)`;
  }
  return undefined;
}

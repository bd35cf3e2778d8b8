/**
 * `--callbacks-relay URL` (issue 33): the proxy judges the callbacks a real upstream sends. When a request to an
 * operation that documents `callbacks` passes through, each callback URL source it carries (`callbackUrl` in a
 * JSON body, a query parameter, a header: spec/callbacks.ts `sourceOf`) is rewritten to a relay path of the proxy,
 * `URL/_mock/relay/<token>`, and the original target is remembered. A callback that arrives there is judged
 * (spec/callbacks.ts `judgeCallback`, the runner's judge) and forwarded to the original target (the rest of its
 * path and its query appended), whose answer goes back to the upstream. Bounded: at most `maxPending` relays, each
 * forgotten `ttlMs` after its request (a full table leaves new requests unrewritten, their callbacks unjudged);
 * callback bodies read up to the proxy's `--max-body-bytes`.
 */
import { randomBytes } from 'node:crypto';
import { targetProblem } from '../spec/callback-hosts';
import { readSource, setBodySource, type CallbackSource, type CallbackSpec } from '../spec/callbacks';

export interface RelayLimits {
  maxPending: number;
  ttlMs: number;
  /**
   * Where a relayed callback may be forwarded (`--callback-hosts`, spec/callback-hosts.ts): a URL naming another
   * host is left as the client sent it, never rewritten, so the relay never calls a host a request chose.
   */
  hosts: readonly string[];
}

export const RELAY_DEFAULTS: RelayLimits = { maxPending: 1000, ttlMs: 10 * 60_000, hosts: ['loopback'] };

/** One rewritten source: where its callbacks really go, and which of them arrived already. */
export interface PendingRelay {
  operationId: string;
  target: string;
  specs: CallbackSpec[];
  taken: Set<CallbackSpec>;
  expiresAt: number;
}

/** A request as the relay may rewrite it. */
export interface RelayRequest {
  search: string;
  headers: Record<string, string>;
  /** The JSON body's text, when it is a JSON body read whole; undefined otherwise. */
  json?: string;
}

export interface Relay {
  /** The request with each callback source it carries rewritten to a relay path (or unchanged), pure apart from the table. */
  rewrite(operationId: string, specs: readonly CallbackSpec[], req: RelayRequest): RelayRequest;
  /** The pending relay of a token, when known and not expired. */
  lookup(token: string): PendingRelay | undefined;
  /** Rewrites refused because the table was full. */
  refused(): number;
  size(): number;
}

export const RELAY_PREFIX = '/_mock/relay/';

/** `/_mock/relay/<token>/rest` -> token and rest, or undefined. */
export function relayPath(path: string): { token: string; rest: string } | undefined {
  if (!path.startsWith(RELAY_PREFIX)) return undefined;
  const m = /^([0-9a-f]{32})(\/.*)?$/.exec(path.slice(RELAY_PREFIX.length));
  return m?.[1] ? { token: m[1], rest: m[2] ?? '' } : undefined;
}

const sourceKey = (s: CallbackSource): string =>
  s.in === 'body' ? `body ${s.pointer}` : `${s.in} ${s.name.toLowerCase()}`;
const absolute = (v: string | undefined): v is string => v !== undefined && /^https?:\/\/[^/]/i.test(v);

/** A relay table whose paths start at `origin()` (the proxy's address as the upstream reaches it). */
export function createRelay(
  origin: () => string,
  limits: Partial<RelayLimits> = {},
  now: () => number = Date.now,
): Relay {
  const l = { ...RELAY_DEFAULTS, ...limits };
  const pending = new Map<string, PendingRelay>();
  let refused = 0;
  const sweep = () => {
    const t = now();
    for (const [token, p] of pending) if (p.expiresAt <= t) pending.delete(token);
  };
  const add = (operationId: string, target: string, specs: CallbackSpec[]): string | undefined => {
    if (pending.size >= l.maxPending) sweep();
    if (pending.size >= l.maxPending) {
      refused++;
      return undefined;
    }
    const token = randomBytes(16).toString('hex');
    pending.set(token, { operationId, target, specs, taken: new Set(), expiresAt: now() + l.ttlMs });
    return `${origin().replace(/\/+$/, '')}${RELAY_PREFIX}${token}`;
  };
  return {
    rewrite(operationId, specs, req) {
      const groups = new Map<string, { source: CallbackSource; specs: CallbackSpec[] }>();
      for (const s of specs) {
        if (!s.source) continue;
        const g = groups.get(sourceKey(s.source)) ?? { source: s.source, specs: [] };
        g.specs.push(s);
        groups.set(sourceKey(s.source), g);
      }
      let body: unknown;
      let bodyChanged = false;
      if (req.json !== undefined)
        try {
          body = JSON.parse(req.json) as unknown;
        } catch {
          body = undefined;
        }
      const query = new URLSearchParams(req.search);
      let queryChanged = false;
      const headers = { ...req.headers };
      for (const { source, specs: group } of groups.values()) {
        const target = readSource(source, { body, query, headers });
        if (!absolute(target) || targetProblem(target, l.hosts)) continue;
        const url = add(operationId, target, group);
        if (!url) continue;
        if (source.in === 'body') {
          body = setBodySource(body, source.pointer, url);
          bodyChanged = true;
        } else if (source.in === 'query') {
          query.set(source.name, url);
          queryChanged = true;
        } else headers[source.name.toLowerCase()] = url;
      }
      return {
        search: queryChanged ? `?${query.toString()}` : req.search,
        headers,
        ...(req.json !== undefined ? { json: bodyChanged ? JSON.stringify(body) : req.json } : {}),
      };
    },
    lookup(token) {
      const p = pending.get(token);
      if (!p) return undefined;
      if (p.expiresAt <= now()) {
        pending.delete(token);
        return undefined;
      }
      return p;
    },
    refused: () => refused,
    size: () => pending.size,
  };
}

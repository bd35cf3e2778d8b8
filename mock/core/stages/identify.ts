/**
 * Stage 1: who is calling. The first credential, in any scheme the document declares, that is a valid key gives
 * its plan; anything else is anonymous, counted by client address (IPv6 per /64) with the anonymous limits, so
 * key guessing is throttled. Never rejects: the 401 comes later, after the rate-limit headers are known.
 */
import { parseQuery } from '../query';
import type { CallerCtx, Ctx, Identity, Stage } from '../context';
import type { CredentialReader } from '../credentials';
import type { ApiKey, Keyring } from '../keys';
import type { WindowSpec } from '../stores/types';

/** Pure: the rate-limit subject of a client address; IPv6 callers share their /64 (one host's usual share). */
export function addressSubject(address: string): string {
  // IPv4 first (no regular expression for the usual caller): a v4-mapped address has colons.
  if (!address.includes(':')) return `addr:${address}`;
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4mapped?.[1]) return `addr:${v4mapped[1]}`;
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  const prefix = groups.slice(0, 4).map((g) => (g || '0').replace(/^0+(?=.)/, '').toLowerCase());
  return `addr:${prefix.join(':')}::/64`;
}

const keyIdentity = (key: ApiKey, schemes: ReadonlySet<string>): Identity => ({
  authenticated: true,
  plan: key.plan,
  subject: key.subject,
  label: key.label,
  windows: key.windows,
  schemes,
});

/** A key's identity when one scheme carried it (nearly every request with a key): built once, never changed. */
const byScheme = new WeakMap<ApiKey, Map<string, Identity>>();

/** The last one given: a run of requests with one key (the usual traffic) skips both lookups. */
let last: { key: ApiKey; scheme: string; identity: Identity } | undefined;

function oneSchemeIdentity(key: ApiKey, scheme: string): Identity {
  if (last !== undefined && last.key === key && last.scheme === scheme) return last.identity;
  let mine = byScheme.get(key);
  if (!mine) byScheme.set(key, (mine = new Map()));
  let identity = mine.get(scheme);
  if (!identity) mine.set(scheme, (identity = Object.freeze(keyIdentity(key, new Set([scheme])))));
  last = { key, scheme, identity };
  return identity;
}

const NO_SCHEMES: ReadonlySet<string> = new Set();

/**
 * Pure apart from reading the keyring: the caller, and the schemes its credentials satisfy. A request with a
 * known key gets that key's identity, built once: nothing is allocated per request for it.
 */
export function identifyCaller(
  ctx: Ctx,
  readers: readonly CredentialReader[],
  keyring: Keyring,
  anonymousWindows: WindowSpec[],
): Identity {
  let query: Record<string, string[]> | undefined;
  const lazyQuery = () => (query ??= parseQuery(ctx.req.query));
  let first: ApiKey | undefined;
  let firstScheme = '';
  let more: Set<string> | undefined;
  let problem: string | undefined;
  for (const reader of readers) {
    const read = reader.read(ctx.req.headers, lazyQuery);
    if ('problem' in read) {
      problem ??= read.problem;
      continue;
    }
    let key: ApiKey | undefined;
    for (const k of read.keys) if ((key = keyring.find(k))) break;
    if (!key) {
      problem = 'unknown API key';
      continue;
    }
    if (!first) {
      first = key;
      firstScheme = reader.scheme;
    } else (more ??= new Set([firstScheme])).add(reader.scheme);
  }
  if (first) return more ? keyIdentity(first, more) : oneSchemeIdentity(first, firstScheme);
  const subject = addressSubject(ctx.req.remoteAddress);
  return {
    authenticated: false,
    plan: 'anonymous',
    subject,
    label: `anonymous@${ctx.req.remoteAddress}`,
    windows: anonymousWindows,
    schemes: NO_SCHEMES,
    authProblem: problem ?? 'no credentials',
  };
}

export const identify: Stage<Ctx, CallerCtx> = function identify(ctx, deps) {
  const caller = ctx as CallerCtx; // the field is set here (the shape is declared whole in runPipeline)
  caller.identity = identifyCaller(ctx, deps.credentials, deps.keyring, deps.anonymous);
  return caller;
};

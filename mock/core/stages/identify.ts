/**
 * Stage 1: who is calling. A valid bearer key gives its plan; anything else is anonymous, counted by client
 * address with the free plan's numbers (so key guessing is throttled). Never rejects: the 401 comes later,
 * after the rate-limit headers are known.
 */
import type { Identity, Stage } from '../context';
import type { Keyring } from '../keys';
import { PLAN_LIMITS, windowsFor } from '../plans';

/** Callers without a valid key: the free plan's numbers, per client address. */
export const ANONYMOUS_WINDOWS = windowsFor(PLAN_LIMITS.free.perMinute, PLAN_LIMITS.free.perDay);

/** §5: `Authorization: Bearer <API_KEY>`, scheme case-insensitive. Pure. */
export function identifyCaller(
  authorization: string | undefined,
  remoteAddress: string,
  keyring: Keyring,
): Identity {
  const anonymous = (authProblem: string): Identity => ({
    authenticated: false,
    plan: 'anonymous',
    subject: `addr:${remoteAddress}`,
    label: `anonymous@${remoteAddress}`,
    windows: ANONYMOUS_WINDOWS,
    authProblem,
  });
  if (authorization === undefined) return anonymous('missing Authorization header');
  const space = authorization.indexOf(' ');
  const scheme = space === -1 ? authorization : authorization.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return anonymous('Authorization scheme must be Bearer');
  const token = space === -1 ? '' : authorization.slice(space + 1).trim();
  if (token === '') return anonymous('empty bearer token');
  const key = keyring.find(token);
  if (!key) return anonymous('unknown API key');
  return {
    authenticated: true,
    plan: key.plan,
    subject: key.subject,
    label: key.label,
    windows: key.windows,
  };
}

export const identify: Stage = function identify(ctx, deps) {
  const identity = identifyCaller(ctx.req.headers.authorization, ctx.req.remoteAddress, deps.keyring);
  return { next: { ...ctx, identity } };
};

/** The rate-limit probe is chosen from the document, never a path written in code. */
import type { LoadedSpec, OperationSpec } from '../../spec/load';

const RATE_HEADER = /^(x-ratelimit-(limit|remaining|reset)|ratelimit|ratelimit-policy)$/i;

/** Does a 2xx response of `op` document X-RateLimit-* or the IETF RateLimit fields? */
function documentsRateLimit(op: OperationSpec): boolean {
  return [...op.responses.entries()].some(
    ([status, res]) => /^2/.test(status) && res.headers.some((h) => RATE_HEADER.test(h.name)),
  );
}

/** Does `op` document a 429 answer, or rate-limit headers on any answer? */
function documentsLimit(op: OperationSpec): boolean {
  return [...op.responses.entries()].some(
    ([status, res]) => status === '429' || res.headers.some((h) => RATE_HEADER.test(h.name)),
  );
}

/** GETs that need nothing filled in: no path parameter, no required query parameter. */
export function plainGets(spec: LoadedSpec): OperationSpec[] {
  return spec.operations.filter(
    (o) => o.method === 'get' && o.pathParams.length === 0 && !o.queryParams.some((p) => p.required),
  );
}

/**
 * A safe GET without path parameters or required query parameters to spend a quota on: one whose 2xx documents
 * rate-limit headers, else one that documents a 429 or the headers on any answer (many documents describe the
 * limit on the 429 only), else, when any operation of the document documents a limit, the first such GET that
 * needs a key (a limit counts requests, whichever operation they address).
 */
export function chooseProbe(spec: LoadedSpec): { op: OperationSpec } | { op?: undefined; reason: string } {
  const safe = plainGets(spec);
  const op =
    safe.find(documentsRateLimit) ??
    safe.find(documentsLimit) ??
    (spec.operations.some(documentsLimit) ? (safe.find((o) => o.requiresAuth) ?? safe[0]) : undefined);
  if (op) return { op };
  return {
    reason:
      safe.length === 0
        ? 'the document has no GET without path parameters to probe the rate limit with'
        : 'the document documents no rate limit (no 429, no X-RateLimit-* or RateLimit header)',
  };
}

/**
 * The request that proves the target answers and takes the key: the probe when it needs a key, else a plain GET
 * that needs one, else the probe or any GET without path parameters, else the base.
 */
export function reachability(
  spec: LoadedSpec,
  probe: OperationSpec | undefined,
): { path: string; requiresAuth: boolean } {
  const gets = plainGets(spec);
  const op =
    [probe, ...gets].find((o) => o?.requiresAuth) ??
    probe ??
    gets[0] ??
    spec.operations.find((o) => o.method === 'get' && o.pathParams.length === 0);
  return { path: op?.path ?? '', requiresAuth: op?.requiresAuth === true };
}

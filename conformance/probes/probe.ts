/** The rate-limit probe is chosen from the document, never a path written in code. */
import type { LoadedSpec, OperationSpec } from '../../spec/load';

const RATE_HEADER = /^(x-ratelimit-(limit|remaining|reset)|ratelimit|ratelimit-policy)$/i;

/** Does a 2xx response of `op` document X-RateLimit-* or the IETF RateLimit fields? */
function documentsRateLimit(op: OperationSpec): boolean {
  return [...op.responses.entries()].some(
    ([status, res]) => /^2/.test(status) && res.headers.some((h) => RATE_HEADER.test(h.name)),
  );
}

/** GETs that need nothing filled in: no path parameter, no required query parameter. */
export function plainGets(spec: LoadedSpec): OperationSpec[] {
  return spec.operations.filter(
    (o) => o.method === 'get' && o.pathParams.length === 0 && !o.queryParams.some((p) => p.required),
  );
}

/** A safe GET without path parameters or required query parameters that documents rate-limit headers. */
export function chooseProbe(spec: LoadedSpec): { op: OperationSpec } | { op?: undefined; reason: string } {
  const safe = plainGets(spec);
  const op = safe.find(documentsRateLimit);
  if (op) return { op };
  return {
    reason:
      safe.length === 0
        ? 'the document has no GET without path parameters to probe the rate limit with'
        : 'no GET without path parameters documents rate-limit headers (X-RateLimit-* or RateLimit)',
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

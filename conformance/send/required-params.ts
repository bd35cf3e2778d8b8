/**
 * Required query and header parameters filled in before a request leaves (issue 29: the mock, the proxy and the
 * runner read the same request rules, and the mock refuses a request without a required header with 400): a
 * request a rule builds names what the rule varies (a body, an id); every required parameter it does not name
 * gets a valid value, so that only what the rule varies decides the answer. A case about a parameter itself
 * (`--fuzz` parameter cases) is sent exactly as built (`Outgoing.exact`).
 */
import type { OperationSpec } from '../../spec/compile';
import { validParamText } from '../generate/param-values';

/** Header parameters OpenAPI says are ignored (`Accept`, `Content-Type`, `Authorization`): never filled in. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** A valid text for `p` (generate/param-values.ts): what a request that does not vary it carries. */
export const requiredParamText = validParamText;

/**
 * Pure: the query values and headers to add so that `op`'s required query and header parameters are all
 * present; `present` says which the request already carries (its query string and its headers).
 */
export function missingRequired(
  op: OperationSpec | undefined,
  present: { query: (name: string) => boolean; headers: Readonly<Record<string, string>> },
): { query: Record<string, string>; headers: Record<string, string> } {
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  if (!op) return { query, headers };
  const sent = new Set(Object.keys(present.headers).map((h) => h.toLowerCase()));
  for (const p of op.queryParams)
    if (p.required && !present.query(p.name)) query[p.name] = requiredParamText(p);
  for (const p of op.headerParams) {
    const name = p.name.toLowerCase();
    if (p.required && !sent.has(name) && !IGNORED_HEADERS.has(name)) headers[p.name] = requiredParamText(p);
  }
  return { query, headers };
}

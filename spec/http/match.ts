/**
 * Which operation a method and a concrete path address: literal before template, `HEAD` as `GET`, 404 for an
 * unknown path, 405 with Allow for a known path and another method. One matcher for the mock, the proxy's judge
 * and the runner. The table comes from the document at start; nothing here walks the document per request.
 */
import { matchBasePath } from '../base-path';
import type { CompiledSpec, OperationSpec } from '../compile';

/** The operation and its path parameters as sent (still percent-encoded), or why there is none. */
export type Found = { operation: OperationSpec; rawParams: string[] };
export type Miss = { status: 404 } | { status: 405; allow: string[] };
export type PathMatch = Found | Miss;

/**
 * `get /books` -> the operation, for paths without parameters, worked out once per document: a request
 * for one of them is one map lookup, no regular expression per operation and nothing allocated. Only where
 * the scan below would find that same operation (no earlier operation of the method matches the path).
 */
const literalRoutes = new WeakMap<CompiledSpec, Map<string, Found>>();

function literalsOf(spec: CompiledSpec): Map<string, Found> {
  const known = literalRoutes.get(spec);
  if (known) return known;
  const literals = new Map<string, Found>();
  spec.operations.forEach((operation, i) => {
    if (operation.pathParams.length || !operation.pathPattern.test(operation.path)) return;
    const earlier = spec.operations
      .slice(0, i)
      .some((o) => o.method === operation.method && o.pathPattern.test(operation.path));
    const key = `${operation.method} ${operation.path}`;
    if (!earlier && !literals.has(key)) literals.set(key, { operation, rawParams: [] });
  });
  literalRoutes.set(spec, literals);
  return literals;
}

/** Pure: match `method path` (path as sent, without query) against the operations under `basePath`. */
export function matchPath(spec: CompiledSpec, basePath: string, method: string, path: string): PathMatch {
  const under = matchBasePath(path, basePath);
  if (under === undefined) return { status: 404 };
  const rest = under || '/';
  const wanted = method.toLowerCase();
  const literal = literalsOf(spec).get(`${wanted} ${rest}`);
  if (literal) return literal;
  // A concrete path wins over a templated one (`/pet/findByStatus` before `/pet/{petId}`, OpenAPI 3.1 §4.8.8):
  // only the matching template with the fewest parameters counts, for the operation and for Allow.
  let fewest = Infinity;
  let allow: string[] = [];
  let found: { operation: OperationSpec; rawParams: string[] } | undefined;
  let head: { operation: OperationSpec; rawParams: string[] } | undefined;
  for (const operation of spec.operations) {
    const params = operation.pathParams.length;
    if (params > fewest) continue;
    const m = operation.pathPattern.exec(rest);
    if (!m) continue;
    if (params < fewest) {
      fewest = params;
      allow = [];
      found = head = undefined;
    }
    if (operation.method === wanted) {
      found ??= { operation, rawParams: m.slice(1) };
      if (params === 0) return found;
    }
    if (wanted === 'head' && operation.method === 'get') head ??= { operation, rawParams: m.slice(1) };
    if (!allow.includes(operation.method.toUpperCase())) allow.push(operation.method.toUpperCase());
  }
  if (found) return found;
  if (head) return head;
  return allow.length ? { status: 405, allow } : { status: 404 };
}

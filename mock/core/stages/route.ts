/**
 * Stage: find the operation for the method and path. Unknown path: 404; known path, other method: 405 with
 * Allow. `HEAD` is answered wherever `GET` is (RFC 9110 §9.3.2; the adapter sends no body). The table comes
 * from the document at start; nothing here walks the document per request.
 */
import { matchBasePath } from '../../../spec/base-path';
import type { CompiledSpec, OperationSpec } from '../../../spec/compile';
import { methodNotAllowed, notFound, type ErrorReply } from '../errors';
import type { Stage } from '../context';

export type RouteMatch = { operation: OperationSpec; rawParams: string[] } | { error: ErrorReply };

type Found = { operation: OperationSpec; rawParams: string[] };

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
export function matchOperation(
  spec: CompiledSpec,
  basePath: string,
  method: string,
  path: string,
): RouteMatch {
  const under = matchBasePath(path, basePath);
  if (under === undefined) return { error: notFound(path) };
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
  return allow.length ? { error: methodNotAllowed(method, path, allow) } : { error: notFound(path) };
}

const NO_PARAMS: Record<string, string> = Object.freeze({});

export const route: Stage = function route(ctx, deps) {
  const match = matchOperation(deps.spec, deps.spec.basePath, ctx.req.method, ctx.req.path);
  if ('error' in match) return { reply: match.error, ctx };
  const names = match.operation.pathParams;
  const params: Record<string, string> = names.length ? {} : NO_PARAMS;
  names.forEach((name, i) => (params[name] = match.rawParams[i] ?? ''));
  ctx.operation = match.operation;
  ctx.binding = deps.model.byOperation.get(match.operation.operationId);
  ctx.params = params;
  return { next: ctx };
};

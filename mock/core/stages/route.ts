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

export const route: Stage = function route(ctx, deps) {
  const match = matchOperation(deps.spec, deps.spec.basePath, ctx.req.method, ctx.req.path);
  if ('error' in match) return { reply: match.error, ctx };
  const params: Record<string, string> = {};
  match.operation.pathParams.forEach((name, i) => (params[name] = match.rawParams[i] ?? ''));
  ctx.operation = match.operation;
  ctx.binding = deps.model.byOperation.get(match.operation.operationId);
  ctx.params = params;
  return { next: ctx };
};

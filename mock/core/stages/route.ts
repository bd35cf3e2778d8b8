/**
 * Stage: find the spec operation for the method and path. Unknown path: 404; known path, other method: 405
 * with Allow. The table comes from the spec at start; nothing here walks the document per request.
 */
import type { LoadedSpec, OperationSpec } from '../../../spec/load';
import { methodNotAllowed, notFound, type ErrorReply } from '../errors';
import type { Stage } from '../context';

export type RouteMatch = { operation: OperationSpec; rawParams: string[] } | { error: ErrorReply };

/** Pure: match `method path` (path as sent, without query) against the spec's operations under its base path. */
export function matchOperation(spec: LoadedSpec, method: string, path: string): RouteMatch {
  const base = spec.basePath;
  if (path !== base && !path.startsWith(`${base}/`)) return { error: notFound(path) };
  const rest = path.slice(base.length) || '/';
  const allow: string[] = [];
  for (const operation of spec.operations) {
    const m = operation.pathPattern.exec(rest);
    if (!m) continue;
    if (operation.method === method.toLowerCase()) return { operation, rawParams: m.slice(1) };
    allow.push(operation.method.toUpperCase());
  }
  return allow.length ? { error: methodNotAllowed(method, path, allow) } : { error: notFound(path) };
}

export const route: Stage = function route(ctx, deps) {
  const match = matchOperation(deps.spec, ctx.req.method, ctx.req.path);
  if ('error' in match) return { reply: match.error, ctx };
  const params: Record<string, string> = {};
  match.operation.pathParams.forEach((name, i) => (params[name] = match.rawParams[i] ?? ''));
  return { next: { ...ctx, operation: match.operation, params } };
};

/**
 * Stage: find the operation for the method and path. Unknown path: 404; known path, other method: 405 with
 * Allow. `HEAD` is answered wherever `GET` is (RFC 9110 §9.3.2; the adapter sends no body). The table comes
 * from the document at start; nothing here walks the document per request.
 */
import type { CompiledSpec } from '../../../spec/compile';
import { matchPath, type Found } from '../../../spec/http/match';
import { methodNotAllowed, notFound, type ErrorReply } from '../errors';
import type { CountedCtx, RoutedCtx, Stage } from '../context';

/** The matched operation, or the mock's error answer for a miss (404, or 405 with Allow). */
export type RouteMatch = Found | { error: ErrorReply };

/** The match as the mock answers it. */
export function matchOperation(
  spec: CompiledSpec,
  basePath: string,
  method: string,
  path: string,
  query = '',
): RouteMatch {
  const m = matchPath(spec, basePath, method, path, query);
  if ('operation' in m) return m;
  return m.status === 405 ? { error: methodNotAllowed(method, path, m.allow) } : { error: notFound(path) };
}

const NO_PARAMS: Record<string, string> = Object.freeze({});

export const route: Stage<CountedCtx, RoutedCtx> = function route(ctx, deps) {
  const match = matchOperation(deps.spec, deps.spec.basePath, ctx.req.method, ctx.req.path, ctx.req.query);
  if ('error' in match) return { reply: match.error, ctx };
  const { operation, rawParams } = match;
  const bound = deps.bound.get(operation);
  // Every operation of the document is bound at load; one that is not is a bug in the deps (a 500).
  if (!bound) throw new Error(`operation ${operation.operationId} is not bound`);
  const names = operation.pathParams;
  const params: Record<string, string> = names.length ? {} : NO_PARAMS;
  for (let i = 0; i < names.length; i++) params[names[i] as string] = rawParams[i] ?? '';
  // Set field by field on the one context (its shape is declared whole in runPipeline): no object per stage.
  const routed = ctx as RoutedCtx;
  routed.operation = operation;
  routed.bound = bound;
  routed.binding = bound.binding;
  routed.params = params;
  return routed;
};

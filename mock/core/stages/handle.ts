/**
 * Stage: produce the answer. Categories are real state (a category you create is there when you list);
 * pets and orders, whose payloads are not published, are answered from the spec's examples by Prism.
 * `Prefer: code=NNN` answers with that documented status and its example instead.
 */
import type { OperationSpec } from '../../../spec/load';
import { apiError } from '../errors';
import type { Ctx, Deps, Reply, Stage } from '../context';

/** The documented example for `status`, or an Error body when the spec gives none. */
export function exampleReply(operation: OperationSpec, status: number): Reply {
  const res = operation.responses.get(String(status));
  const headers: Record<string, string> = status === 429 ? { 'Retry-After': '60' } : {};
  if (res?.example !== undefined) return { status, body: res.example, headers };
  if (status >= 400)
    return {
      status,
      body: { code: `example_${status}`, message: res?.description ?? 'example', status },
      headers,
    };
  return { status, body: null, headers };
}

async function listCategories(deps: Deps): Promise<Reply> {
  // A repeated GET with no write in between reuses the bytes: no re-serialising of the whole list.
  const version = await deps.categories.version();
  const cached = deps.listCache.current;
  if (cached && cached.version === version) return { status: 200, raw: cached.raw };
  const raw = Buffer.from(JSON.stringify(await deps.categories.list()));
  deps.listCache.current = { version, raw };
  return { status: 200, raw };
}

async function fromEngine(ctx: Ctx, deps: Deps, operation: OperationSpec): Promise<Reply> {
  const path = ctx.req.path.slice(deps.spec.basePath.length);
  const answer = await deps.engine({
    method: ctx.req.method,
    path,
    operation,
    preferStatus: ctx.preferStatus,
  });
  if ('error' in answer) return apiError('internal_error', `example engine: ${answer.error}`);
  if (answer.status >= 400 && operation.responses.get(String(answer.status))?.example === undefined) {
    return exampleReply(operation, answer.status);
  }
  return {
    status: answer.status,
    body: answer.body,
    headers: answer.status === 429 ? { 'Retry-After': '60' } : {},
  };
}

export const handle: Stage = async function handle(ctx, deps) {
  const operation = ctx.operation;
  if (!operation) throw new Error('handle needs route to run first');
  const natural = operation.operationId === 'createCategory' ? 201 : 200;
  const stateful = operation.operationId === 'listCategories' || operation.operationId === 'createCategory';
  if (stateful && ctx.preferStatus !== undefined && ctx.preferStatus !== natural) {
    return { reply: exampleReply(operation, ctx.preferStatus), ctx };
  }
  switch (operation.operationId) {
    case 'listCategories':
      return { reply: await listCategories(deps), ctx };
    case 'createCategory': {
      if (!ctx.input) throw new Error('createCategory needs a validated body');
      return { reply: { status: 201, body: await deps.categories.create(ctx.input) }, ctx };
    }
    default:
      return { reply: await fromEngine(ctx, deps, operation), ctx };
  }
};

/**
 * Path values for safe reads taken from what the server answered before (send/seen-values.ts): a read addressed
 * by a name is sent with one the server named, after the reads above it (`GET /countries` before
 * `GET /countries/{country}`) have been answered once. Writes never use them: a seen id may be data the run did
 * not make.
 */
import type { OperationSpec } from '../../spec/load';
import type { RunContext } from '../send/check-context';
import { fillPath } from '../generate/param-cases';
import { validParamText } from '../generate/param-values';

const SAFE = new Set(['get', 'head']);

/** Whether `op` may be sent with values the server named (a GET or HEAD with path parameters). */
export const readsByName = (op: OperationSpec): boolean =>
  SAFE.has(op.method.toLowerCase()) && op.pathParamSpecs.length > 0;

/** The texts of `op`'s path parameters: valid ones, replaced by values the server named where `op` is a read. */
export function pathTexts(op: OperationSpec, ctx: Pick<RunContext, 'seen'>): Record<string, string> {
  const valid = Object.fromEntries(op.pathParamSpecs.map((p) => [p.name, validParamText(p)]));
  return readsByName(op) ? { ...valid, ...ctx.seen.pathValues(op) } : valid;
}

/** The GET operations whose path is a proper prefix of `op`'s (at a segment), shortest first. */
function readsAbove(op: OperationSpec, all: readonly OperationSpec[]): OperationSpec[] {
  return all
    .filter(
      (o) =>
        o.method.toLowerCase() === 'get' &&
        o.path !== op.path &&
        op.path.startsWith(`${o.path.replace(/\/+$/, '')}/`),
    )
    .sort((a, b) => a.path.length - b.path.length);
}

/** Send, once per run, each read above `op` not yet answered, so that its answer names values for `op`. */
export async function learnAbove(op: OperationSpec, ctx: RunContext): Promise<void> {
  if (!readsByName(op)) return;
  for (const above of readsAbove(op, ctx.spec.operations)) {
    if (ctx.seen.answered(above.path)) continue;
    const path = fillPath(above.path, pathTexts(above, ctx));
    await ctx.client.send({ method: 'GET', path, auth: { use: 'key' } });
  }
}

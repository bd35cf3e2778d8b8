/**
 * Stage: security as the document declares it, per operation: no requirement (or `security: []`) is open;
 * alternatives are OR, schemes within one requirement are AND. Runs before validation: a bad body without a
 * key is 401. §5: the default document requires its bearer key on every operation.
 */
import { unauthorized, type ErrorReply } from '../errors';
import type { OperationSpec } from '../../../spec/compile';
import type { CredentialReader } from '../credentials';
import type { RoutedCtx, Stage } from '../context';

/** Pure: does a caller whose credentials satisfy `schemes` meet one of the operation's requirements? */
export function meetsSecurity(requirements: readonly string[][], schemes: ReadonlySet<string>): boolean {
  return requirements.length === 0 || requirements.some((all) => all.every((s) => schemes.has(s)));
}

/** Pure: the `WWW-Authenticate` challenges of the schemes an operation's requirements name. */
function challengeOf(op: OperationSpec, readers: readonly CredentialReader[]): string {
  const named = new Set(op.security.flat());
  return readers
    .filter((r) => named.has(r.scheme))
    .map((r) => r.challenge)
    .join(', ');
}

/**
 * The 401 of an operation for one problem, built once (a guessed key is refused thousands of times a second): by
 * the readers (one set per document), then the operation, then the problem (a handful of fixed texts).
 */
const refusals = new WeakMap<readonly CredentialReader[], WeakMap<OperationSpec, Map<string, ErrorReply>>>();

function refusalOf(op: OperationSpec, readers: readonly CredentialReader[], problem: string): ErrorReply {
  let byOp = refusals.get(readers);
  if (!byOp) refusals.set(readers, (byOp = new WeakMap()));
  let byProblem = byOp.get(op);
  if (!byProblem) byOp.set(op, (byProblem = new Map()));
  let reply = byProblem.get(problem);
  if (!reply) {
    // The problems are the readers' own texts, but bounded all the same.
    if (byProblem.size >= 64) byProblem.clear();
    const challenge = challengeOf(op, readers);
    reply = unauthorized(`The API key is missing or invalid: ${problem}.`, challenge || undefined);
    // Shared by every request it refuses: nothing downstream may change it.
    Object.freeze(reply.headers);
    byProblem.set(problem, Object.freeze(reply));
  }
  return reply;
}

export const authorize: Stage<RoutedCtx> = function authorize(ctx, deps) {
  const op = ctx.operation;
  if (meetsSecurity(op.security, ctx.identity.schemes)) return ctx;
  return { reply: refusalOf(op, deps.credentials, ctx.identity.authProblem ?? 'no credentials'), ctx };
};

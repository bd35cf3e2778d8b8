/**
 * Stage: security as the document declares it, per operation: no requirement (or `security: []`) is open;
 * alternatives are OR, schemes within one requirement are AND. Runs before validation: a bad body without a
 * key is 401. §5: the default document requires its bearer key on every operation.
 */
import { unauthorized } from '../errors';
import type { RoutedCtx, Stage } from '../context';

/** Pure: does a caller whose credentials satisfy `schemes` meet one of the operation's requirements? */
export function meetsSecurity(requirements: readonly string[][], schemes: ReadonlySet<string>): boolean {
  return requirements.length === 0 || requirements.some((all) => all.every((s) => schemes.has(s)));
}

export const authorize: Stage<RoutedCtx> = function authorize(ctx, deps) {
  const op = ctx.operation;
  if (meetsSecurity(op.security, ctx.identity.schemes)) return ctx;
  const named = new Set(op.security.flat());
  const challenge = deps.credentials
    .filter((r) => named.has(r.scheme))
    .map((r) => r.challenge)
    .join(', ');
  return {
    reply: unauthorized(
      `The API key is missing or invalid: ${ctx.identity.authProblem ?? 'no credentials'}.`,
      challenge || undefined,
    ),
    ctx,
  };
};

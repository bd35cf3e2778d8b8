/** Stage: §5, every operation requires a valid key. Runs before validation: a bad body without a key is 401. */
import { unauthorized } from '../errors';
import type { Stage } from '../context';

export const authorize: Stage = function authorize(ctx) {
  if (!ctx.operation?.requiresAuth || ctx.identity?.authenticated) return { next: ctx };
  return {
    reply: unauthorized(`The API key is missing or invalid: ${ctx.identity?.authProblem ?? 'no key'}.`),
    ctx,
  };
};

/**
 * The order of the stages is the compiler's to check: `then` joins a stage only to one that gives what it needs.
 * Each `@ts-expect-error` below fails `npm run typecheck` the day the stage types stop saying it.
 */
import { then } from './pipeline';
import { handle } from './stages/handle';
import { identify } from './stages/identify';
import { rateLimit } from './stages/rate-limit';
import { readBody } from './stages/read-body';
import { route } from './stages/route';
import { validate } from './stages/validate';

it('joins stages only where each gets the context it needs', () => {
  // @ts-expect-error handle needs the body read (ReadCtx); route gives a RoutedCtx
  const unread = then(route, handle);
  // @ts-expect-error route needs a counted caller (CountedCtx); identify gives a CallerCtx
  const uncounted = then(identify, then(route, then(readBody, handle)));
  const whole = then(identify, then(rateLimit, then(route, then(readBody, then(validate, handle)))));
  expect([unread, uncounted, whole].map((f) => typeof f)).toEqual(['function', 'function', 'function']);
});

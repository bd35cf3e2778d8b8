/** `--max-response-time MS`: a rule that every answer came within MS milliseconds of its request. */
import type { Exchange, Finding, Rule } from '../types';

export const RESPONSE_TIME_RULE = 'response.max-time';

/** The rule, titled with its bound. */
export const responseTimeRule = (ms: number): Rule => ({
  id: RESPONSE_TIME_RULE,
  title: `Every response arrives within ${ms} ms (--max-response-time)`,
  source: '--max-response-time',
  kind: 'contract',
  tags: ['timing'],
});

/** One finding per exchange with a response: pass within `ms`, fail beyond it. */
export function checkResponseTimes(exchanges: readonly Exchange[], ms: number): Finding[] {
  return exchanges
    .filter((e) => e.response && e.sentAt !== undefined)
    .map((e) => {
      const took = e.receivedAt - (e.sentAt ?? e.receivedAt);
      return took <= ms
        ? { ruleId: RESPONSE_TIME_RULE, outcome: 'pass', exchange: e }
        : {
            ruleId: RESPONSE_TIME_RULE,
            outcome: 'fail',
            problem: `${e.request.method} ${e.request.url} took ${took} ms (over ${ms} ms)`,
            exchange: e,
          };
    });
}

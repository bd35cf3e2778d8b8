/** The IETF RateLimit field rules, judged once for the runner, the proxy and `--judge-har` (spec/http/ratelimit-ietf.ts). */
export {
  checkRateLimitFields,
  IETF_RULES,
  quotaProblem,
  rateLimitFieldsJudge,
  retryAfterProblem,
} from '../../spec/http/ratelimit-ietf';

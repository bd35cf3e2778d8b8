/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-11), judged on every recorded response that
 * carries them: syntax (RFC 9651 Lists), r never above the named policy's q, and a 429's Retry-After not earlier
 * than t. A target that sends neither field gets these rules skipped, not failed.
 */
import {
  retryAfterMs,
  parsePolicy,
  parseRateLimit,
  type RateLimitItem,
  type RateLimitPolicy,
} from './ratelimit-fields';
import type { Exchange, Finding, RecordedResponse } from '../report/types';

export const IETF_RULES = ['ratelimit.ietf-syntax', 'ratelimit.ietf-quota', 'ratelimit.ietf-retry-after'];
const [SYNTAX, QUOTA, RETRY] = IETF_RULES as [string, string, string];

const failOn = (ruleId: string, problem: string, exchange: Exchange): Finding => ({
  ruleId,
  outcome: 'fail',
  problem,
  exchange,
});

/** Findings for the three rules over every exchange; `quotaRun`: the quota rules ran (they provoke a 429). */
export function checkRateLimitFields(exchanges: readonly Exchange[], quotaRun = true): Finding[] {
  const judge = rateLimitFieldsJudge();
  return [...exchanges.flatMap((e) => judge.observe(e)), ...judge.finish(quotaRun)];
}

/** The same judgement one exchange at a time: `observe` each as it arrives, `finish` once at the end. */
export function rateLimitFieldsJudge(): {
  observe(exchange: Exchange): Finding[];
  finish(quotaRun: boolean): Finding[];
} {
  let carried = false;
  let judged429 = false;
  return {
    observe(exchange) {
      const res = exchange.response;
      if (!res || (res.headers.ratelimit === undefined && res.headers['ratelimit-policy'] === undefined))
        return [];
      carried = true;
      const fields = parseFields(res);
      if (typeof fields === 'string') return [failOn(SYNTAX, fields, exchange)];
      const findings: Finding[] = [{ ruleId: SYNTAX, outcome: 'pass' }];
      const quota = quotaProblem(fields.limits, fields.policies);
      findings.push(quota ? failOn(QUOTA, quota, exchange) : { ruleId: QUOTA, outcome: 'pass' });
      if (res.status === 429 && fields.limits.length > 0) {
        judged429 = true;
        const problem = retryAfterProblem(res, fields.limits, exchange.receivedAt);
        findings.push(problem ? failOn(RETRY, problem, exchange) : { ruleId: RETRY, outcome: 'pass' });
      }
      return findings;
    },
    finish(quotaRun) {
      if (!carried) {
        const reason = 'the target sends no RateLimit or RateLimit-Policy field';
        return IETF_RULES.map((ruleId) => ({ ruleId, outcome: 'skip', problem: reason }));
      }
      if (judged429) return [];
      return [
        {
          ruleId: RETRY,
          outcome: 'skip',
          problem: quotaRun
            ? 'no 429 with a RateLimit field was seen'
            : 'opt-in: needs the quota rules (--include quota), which provoke a 429',
        },
      ];
    },
  };
}

interface Fields {
  limits: RateLimitItem[];
  policies?: RateLimitPolicy[];
}

/** A server sends one policy on every answer: parsed once per distinct value (the last one remembered). */
let lastPolicy: { raw: string; parsed: ReturnType<typeof parsePolicy>; names: Set<string> } | undefined;
function policyOf(raw: string): NonNullable<typeof lastPolicy> {
  if (lastPolicy?.raw !== raw) {
    const parsed = parsePolicy(raw);
    lastPolicy = { raw, parsed, names: new Set(parsed.ok ? parsed.items.map((p) => p.name) : []) };
  }
  return lastPolicy;
}

/** Both fields parsed, or the syntax problem. */
function parseFields(res: RecordedResponse): Fields | string {
  const rawLimit = res.headers.ratelimit;
  const rawPolicy = res.headers['ratelimit-policy'];
  const limits = rawLimit === undefined ? { ok: true as const, items: [] } : parseRateLimit(rawLimit);
  if (!limits.ok) return limits.problem;
  if (rawPolicy === undefined) return { limits: limits.items };
  const { parsed: policies, names } = policyOf(rawPolicy);
  if (!policies.ok) return policies.problem;
  const orphan = limits.items.find((l) => !names.has(l.name));
  if (orphan) return `RateLimit names "${orphan.name}", which RateLimit-Policy "${rawPolicy}" does not list`;
  return { limits: limits.items, policies: policies.items };
}

/** r above the policy's q is a lie about the quota. */
export function quotaProblem(
  limits: RateLimitItem[],
  policies: RateLimitPolicy[] | undefined,
): string | undefined {
  for (const limit of limits) {
    const policy = policies?.find((p) => p.name === limit.name);
    if (policy && limit.r > policy.q)
      return `RateLimit "${limit.name}" r=${limit.r} exceeds its policy's q=${policy.q}`;
  }
  return undefined;
}

/** A 429's Retry-After must not send the client back before the exhausted limit's t. */
export function retryAfterProblem(
  res: RecordedResponse,
  limits: RateLimitItem[],
  nowMs: number,
): string | undefined {
  const exhausted = limits.filter((l) => l.r === 0 && l.t !== undefined);
  if (exhausted.length === 0) return undefined;
  const t = Math.min(...exhausted.map((l) => l.t as number));
  const waitMs = retryAfterMs(res.headers['retry-after'], nowMs);
  if (waitMs === undefined) return `429 with RateLimit t=${t} but no usable Retry-After`;
  // HTTP dates have a one-second resolution.
  return waitMs + 1000 < t * 1000
    ? `Retry-After ${res.headers['retry-after']} is earlier than RateLimit t=${t}`
    : undefined;
}

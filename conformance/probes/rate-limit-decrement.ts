/**
 * §8: the remaining budget goes down by one per counted request (run first, while the key is quiet), read from
 * X-RateLimit-Remaining (`ratelimit.decrement`) and, when the target sends it, the IETF RateLimit field's r
 * (`ratelimit.ietf-countdown`). Sent to the probe operation chosen from the document.
 */
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import type { RuleId } from '../rules';
import { bindingLimit } from '../../spec/http/ratelimit-fields';
import type { Exchange, Finding } from '../types';

const SAMPLES = 3;
const RULE = 'ratelimit.decrement';
const IETF = 'ratelimit.ietf-countdown';

interface Sample {
  remaining: number;
  reset?: string;
  exchange: Exchange;
}

/** Compare consecutive samples in the same window (same Reset); a drop of more than one is tolerated
 * (someone else may share the key on staging), but no drop, a rise, or never exactly one is a failure. */
export function judgeDecrement(samples: readonly Sample[]): { ok: boolean; problem?: string } {
  const diffs: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    const [a, b] = [samples[i - 1] as Sample, samples[i] as Sample];
    if (a.reset !== b.reset) continue; // a new window started in between
    diffs.push(a.remaining - b.remaining);
  }
  if (diffs.length === 0) return { ok: true };
  const seen = samples.map((s) => s.remaining).join(' -> ');
  if (diffs.some((d) => d <= 0)) return { ok: false, problem: `Remaining did not decrease: ${seen}` };
  if (!diffs.includes(1)) return { ok: false, problem: `Remaining never decreased by exactly one: ${seen}` };
  return { ok: true };
}

/** RateLimit samples: t is relative, so the window is the absolute reset time, within a second of jitter. */
function ietfSamples(exchanges: readonly Exchange[]): Sample[] {
  const out: Sample[] = [];
  let window = 0;
  let lastEnd: number | undefined;
  for (const exchange of exchanges) {
    const limit = bindingLimit(exchange.response?.headers.ratelimit);
    if (!limit) return [];
    const end = limit.t === undefined ? undefined : exchange.receivedAt / 1000 + limit.t;
    if (end !== undefined && lastEnd !== undefined && Math.abs(end - lastEnd) > 1.5) window += 1;
    lastEnd = end ?? lastEnd;
    out.push({ remaining: limit.r, reset: String(window), exchange });
  }
  return out;
}

export const rateLimitDecrementCheck: Check = {
  name: 'rate-limit countdown',
  rules: [RULE, IETF],
  phase: 'first',
  async run(ctx: RunContext): Promise<Finding[]> {
    const probe = ctx.probe;
    if (!probe.op) return [skip(RULE, probe.reason), skip(IETF, probe.reason)];
    const samples: Sample[] = [];
    const exchanges: Exchange[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const result = await ctx.client.send({ method: 'GET', path: probe.op.path, auth: { use: 'key' } });
      const bad = unusable(RULE, result);
      if (bad || result.kind !== 'response') return bad ? [bad, { ...bad, ruleId: IETF }] : [];
      exchanges.push(result.exchange);
      const raw = result.response.headers['x-ratelimit-remaining'];
      if (raw !== undefined && /^\d+$/.test(raw.trim()))
        samples.push({
          remaining: Number(raw),
          reset: result.response.headers['x-ratelimit-reset'],
          exchange: result.exchange,
        });
    }
    const findings: Finding[] = [];
    // Without the headers there is nothing to count; response.headers reports a documented one missing.
    if (samples.length === SAMPLES) findings.push(verdict(RULE, judgeDecrement(samples), samples));
    const ietf = ietfSamples(exchanges);
    findings.push(
      ietf.length === SAMPLES
        ? verdict(IETF, judgeDecrement(ietf), ietf)
        : skip(IETF, 'the target sends no RateLimit field', exchanges[0]),
    );
    return findings;
  },
};

function verdict(rule: RuleId, v: { ok: boolean; problem?: string }, samples: Sample[]): Finding {
  const last = samples[samples.length - 1]?.exchange;
  const steps = samples.slice(0, -1).map((s) => s.exchange);
  return v.ok ? pass(rule, last) : fail(rule, v.problem ?? '', last, steps);
}

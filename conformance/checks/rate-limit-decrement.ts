/** §8: X-RateLimit-Remaining goes down by one per counted request (run first, while the key is quiet). */
import { fail, pass, unusable, type Check, type RunContext } from '../execute/check-context';
import type { Exchange, Finding } from '../types';

const SAMPLES = 3;
const RULE = 'ratelimit.decrement';

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

export const rateLimitDecrementCheck: Check = {
  name: 'rate-limit countdown',
  rules: [RULE],
  phase: 'first',
  async run(ctx: RunContext): Promise<Finding[]> {
    const op = ctx.spec.byId.get('listCategories') ?? ctx.spec.operations.find((o) => o.method === 'get');
    if (!op) return [];
    const samples: Sample[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const result = await ctx.client.send({ method: 'GET', path: op.path, auth: { use: 'key' } });
      const bad = unusable(RULE, result);
      if (bad || result.kind !== 'response') return bad ? [bad] : [];
      const raw = result.response.headers['x-ratelimit-remaining'];
      if (raw === undefined || !/^\d+$/.test(raw.trim())) return []; // response.headers reports it
      const reset = result.response.headers['x-ratelimit-reset'];
      samples.push({ remaining: Number(raw), reset, exchange: result.exchange });
    }
    const verdict = judgeDecrement(samples);
    const last = samples[samples.length - 1]?.exchange;
    return [verdict.ok ? pass(RULE, last) : fail(RULE, verdict.problem ?? '', last)];
  },
};

/**
 * §8, tagged `quota`: spend the quota key's window with one parallel burst. Exactly the remaining
 * budget must be admitted and the rest refused with 429 + Error + Retry-After. Nothing is sent after.
 */
import { errorBodyProblem } from '../../spec/http/error-body';
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import type { EngineRuleId } from '../rules';
import { bindingLimit } from '../../spec/http/ratelimit-fields';
import type { Exchange, Finding, RecordedResponse } from '../types';

const EXTRA = 5;
const MAX_BURST = 1000;
const RULES: EngineRuleId[] = ['quota.burst-exact', 'quota.429-after-limit', 'assume.retry-after-seconds'];

const int = (res: RecordedResponse, name: string) => {
  const raw = res.headers[name];
  return raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : undefined;
};
const skipAll = (reason: string, exchange?: Exchange) => RULES.map((r) => skip(r, reason, exchange));

/** A window ending sooner than this after the probe is waited out: a burst must fit inside one window. */
const RESET_GUARD_MS = 1500;

/**
 * One request with the quota key, to read its budget. When the published reset (X-RateLimit-Reset, epoch seconds)
 * is less than RESET_GUARD_MS away, the window would likely end mid-burst and the burst judge nothing: wait for
 * it to pass and probe once more, in the next window.
 */
export async function freshWindowProbe(ctx: RunContext, path: string) {
  const send = () => ctx.client.send({ method: 'GET', path, auth: { use: 'quota' }, expects429: true });
  const first = await send();
  if (first.kind !== 'response' || first.response.status === 429) return first;
  const reset = int(first.response, 'x-ratelimit-reset');
  const left = reset === undefined ? Infinity : reset * 1000 - Date.now();
  if (left < 0 || left >= RESET_GUARD_MS) return first;
  await new Promise((resolve) => setTimeout(resolve, left + 50));
  return send();
}

export const quotaCheck: Check = {
  name: 'quota burst',
  rules: RULES,
  phase: 'last',
  async run(ctx: RunContext): Promise<Finding[]> {
    if (!ctx.hasQuotaKey) return skipAll('no quota key: pass --quota-key or set CONFORMANCE_QUOTA_KEY');
    if (!ctx.probe.op) return skipAll(ctx.probe.reason);
    const path = ctx.probe.op.path;
    const operationId = ctx.probe.op.operationId;
    const probe = await freshWindowProbe(ctx, path);
    const bad = unusable('quota.burst-exact', probe);
    if (bad || probe.kind !== 'response') return bad ? skipAll(bad.problem ?? '', bad.exchange) : [];
    if (probe.response.status === 429)
      return skipAll('rate-limited: the quota key is already spent; retry after its reset', probe.exchange);
    // The budget from X-RateLimit-* when present (what the document publishes), the IETF RateLimit field otherwise.
    const ietf = bindingLimit(probe.response.headers.ratelimit);
    const remaining = int(probe.response, 'x-ratelimit-remaining') ?? ietf?.r;
    const reset =
      int(probe.response, 'x-ratelimit-reset') ??
      (ietf?.t !== undefined ? Math.ceil(probe.exchange.receivedAt / 1000 + ietf.t) : undefined);
    if (remaining === undefined) return ramp(ctx, path, operationId);
    if (remaining > MAX_BURST)
      return skipAll(`remaining ${remaining} is more than a ${MAX_BURST}-request burst`);
    const results = await Promise.all(
      Array.from({ length: remaining + EXTRA }, () =>
        ctx.client.send({ method: 'GET', path, auth: { use: 'quota' }, expects429: true }),
      ),
    );
    const responses = results.flatMap((r) => (r.kind === 'response' ? [r] : []));
    if (responses.length < results.length) return skipAll('some burst requests got no response');
    if (reset !== undefined && Date.now() >= reset * 1000)
      return skipAll('the window reset during the burst');
    const admitted = responses.filter((r) => r.response.status !== 429);
    const refused = responses.filter((r) => r.response.status === 429);
    const findings: Finding[] = [];
    const summary = `${admitted.length} of ${results.length} admitted with ${remaining} remaining`;
    findings.push(
      admitted.length === remaining
        ? pass('quota.burst-exact')
        : fail(
            'quota.burst-exact',
            `${summary}, expected exactly ${remaining}`,
            (admitted[remaining] ?? refused[0])?.exchange,
          ),
    );
    if (refused.length === 0)
      findings.push(
        fail(
          'quota.429-after-limit',
          `no 429 once the limit was spent (${summary})`,
          admitted.at(-1)?.exchange,
        ),
      );
    findings.push(...refusals(ctx, refused, operationId));
    return findings;
  },
};

type Answered = { response: RecordedResponse; exchange: Exchange };

/** Each 429: an Error body, a Retry-After, and that in whole seconds. */
function refusals(ctx: RunContext, refused: readonly Answered[], operationId: string): Finding[] {
  const findings: Finding[] = [];
  for (const r of refused) {
    const problem =
      errorBodyProblem(ctx.spec, r.response, operationId) ??
      (r.response.headers['retry-after'] === undefined ? '429 without Retry-After' : undefined);
    findings.push(
      problem
        ? fail('quota.429-after-limit', problem, r.exchange)
        : pass('quota.429-after-limit', r.exchange),
    );
    const retry = r.response.headers['retry-after'];
    if (retry !== undefined)
      findings.push(
        /^\d+$/.test(retry.trim())
          ? pass('assume.retry-after-seconds')
          : fail('assume.retry-after-seconds', `Retry-After "${retry}" is not whole seconds`, r.exchange),
      );
  }
  return findings;
}

const RAMP_STEP = 20;

/**
 * No budget published to size one exact burst: spend the quota key in parallel steps until the first 429 (at
 * most MAX_BURST requests), then judge the 429s. burst-exact needs the published budget and is skipped.
 */
async function ramp(ctx: RunContext, path: string, operationId: string): Promise<Finding[]> {
  const refused: Answered[] = [];
  let sent = 1;
  while (refused.length === 0 && sent < MAX_BURST) {
    const step = Math.min(RAMP_STEP, MAX_BURST - sent);
    const results = await Promise.all(
      Array.from({ length: step }, () =>
        ctx.client.send({ method: 'GET', path, auth: { use: 'quota' }, expects429: true }),
      ),
    );
    sent += step;
    if (results.some((r) => r.kind !== 'response')) return skipAll('some burst requests got no response');
    for (const r of results) if (r.kind === 'response' && r.response.status === 429) refused.push(r);
  }
  const exact = skip(
    'quota.burst-exact',
    'neither RateLimit nor X-RateLimit-Remaining to size an exact burst',
  );
  if (refused.length === 0)
    return [
      exact,
      skip('quota.429-after-limit', `no 429 after ${sent} requests (a limit above ${MAX_BURST} a window)`),
      skip('assume.retry-after-seconds', `no 429 after ${sent} requests`),
    ];
  return [exact, ...refusals(ctx, refused, operationId)];
}

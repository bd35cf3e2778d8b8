/**
 * §9: the base address ends in the document's version segment (`/v1`) and serves the operations there; another
 * version segment is not served. Skipped with the reason when the document's base path has no version.
 */
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import type { EngineRuleId } from '../rules';
import type { Finding } from '../types';
import { plainGets } from './probe';

const RULES: EngineRuleId[] = ['version.v1-segment', 'assume.other-version-absent'];

export const versionCheck: Check = {
  name: 'version segment',
  rules: RULES,
  async run(ctx: RunContext): Promise<Finding[]> {
    const version = /\/v(\d+)$/.exec(ctx.spec.basePath);
    if (!version)
      return RULES.map((r) =>
        skip(r, `the document's base path "${ctx.spec.basePath}" has no version segment`),
      );
    const segment = `/v${version[1] ?? ''}`;
    const op = ctx.probe.op ?? plainGets(ctx.spec)[0];
    if (!op)
      return RULES.map((r) =>
        skip(r, 'the document has no GET without path parameters or required query parameters'),
      );
    const findings: Finding[] = [];
    const target = new URL(ctx.client.target);
    const base = target.pathname.replace(/\/+$/, '');
    // The rule names /v1 (§9 of the pet store's interface): another document's segment is not its claim.
    if (segment === '/v1') findings.push(...(await underSegment(ctx, op.path, base, segment)));
    else findings.push(skip('version.v1-segment', `the document's version segment is ${segment}, not /v1`));
    const other = new URL(target.href);
    other.pathname = `${base.slice(0, base.length - segment.length)}/v${Number(version[1]) + 1}${op.path}`;
    const next = await ctx.client.send({ method: 'GET', url: other.href, auth: { use: 'key' } });
    const badNext = unusable('assume.other-version-absent', next);
    if (badNext) findings.push(badNext);
    else if (next.kind === 'response')
      findings.push(
        next.response.status >= 200 && next.response.status < 300
          ? fail(
              'assume.other-version-absent',
              `GET ${other.pathname} succeeded with ${next.response.status}`,
              next.exchange,
            )
          : pass('assume.other-version-absent', next.exchange),
      );
    return findings;
  },
};

/** `version.v1-segment`: the target ends in the segment, and a plain read answers 200 under it. */
async function underSegment(
  ctx: RunContext,
  path: string,
  base: string,
  segment: string,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  if (!base.endsWith(segment))
    findings.push(fail('version.v1-segment', `target ${ctx.client.target} does not end in ${segment}`));
  const ok = await ctx.client.send({ method: 'GET', path, auth: { use: 'key' } });
  const bad = unusable('version.v1-segment', ok);
  if (bad) findings.push(bad);
  else if (ok.kind === 'response')
    findings.push(
      ok.response.status === 200
        ? pass('version.v1-segment', ok.exchange)
        : fail(
            'version.v1-segment',
            `GET ${segment}${path} gave ${ok.response.status}, expected 200`,
            ok.exchange,
          ),
    );
  return findings;
}

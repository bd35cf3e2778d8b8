/** §9: the base address ends in /v1 and serves the operations; another version segment is not served. */
import { fail, pass, unusable, type Check, type RunContext } from '../execute/check-context';
import type { Finding } from '../types';

export const versionCheck: Check = {
  name: 'version segment',
  rules: ['version.v1-segment', 'assume.other-version-absent'],
  async run(ctx: RunContext): Promise<Finding[]> {
    const findings: Finding[] = [];
    const target = new URL(ctx.client.target);
    const base = target.pathname.replace(/\/+$/, '');
    if (!base.endsWith('/v1'))
      findings.push(fail('version.v1-segment', `target ${target.href} does not end in /v1`));
    const ok = await ctx.client.send({ method: 'GET', path: '/categories', auth: { use: 'key' } });
    const bad = unusable('version.v1-segment', ok);
    if (bad) findings.push(bad);
    else if (ok.kind === 'response')
      findings.push(
        ok.response.status === 200
          ? pass('version.v1-segment', ok.exchange)
          : fail(
              'version.v1-segment',
              `GET /v1/categories gave ${ok.response.status}, expected 200`,
              ok.exchange,
            ),
      );
    const other = new URL(target.href);
    other.pathname = `${base.replace(/\/v1$/, '/v2')}/categories`;
    const v2 = await ctx.client.send({ method: 'GET', url: other.href, auth: { use: 'key' } });
    const badV2 = unusable('assume.other-version-absent', v2);
    if (badV2) findings.push(badV2);
    else if (v2.kind === 'response')
      findings.push(
        v2.response.status >= 200 && v2.response.status < 300
          ? fail(
              'assume.other-version-absent',
              `GET ${other.pathname} succeeded with ${v2.response.status}`,
              v2.exchange,
            )
          : pass('assume.other-version-absent', v2.exchange),
      );
    return findings;
  },
};

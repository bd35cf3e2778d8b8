/**
 * §9: the base address ends in the document's version segment (`/v1`) and serves the operations there; another
 * version segment is not served. Skipped with the reason when the document's base path has no version.
 */
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import type { Finding } from '../types';
import { plainGets } from './probe';

const RULES = ['version.v1-segment', 'assume.other-version-absent'];

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
    if (!base.endsWith(segment))
      findings.push(fail('version.v1-segment', `target ${target.href} does not end in ${segment}`));
    const ok = await ctx.client.send({ method: 'GET', path: op.path, auth: { use: 'key' } });
    const bad = unusable('version.v1-segment', ok);
    if (bad) findings.push(bad);
    else if (ok.kind === 'response')
      findings.push(
        ok.response.status === 200
          ? pass('version.v1-segment', ok.exchange)
          : fail(
              'version.v1-segment',
              `GET ${segment}${op.path} gave ${ok.response.status}, expected 200`,
              ok.exchange,
            ),
      );
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

/**
 * `--replay`: the failures the fuzz phase saved, sent again; each is a rule of its own that passes when the
 * server now answers as the document says (fixed) and fails when it still does not.
 */
import path from 'node:path';
import type { LoadedSpec } from '../../spec/load';
import { pathFor } from '../build/bodies';
import { bodyRequest } from '../build/requests';
import { fail, pass, skip, type Check } from '../send/check-context';
import type { Finding, Rule } from '../types';
import type { RuleOf } from '../rules';
import { loadFailures, type SavedFailure } from './failures';
import { withRunPrefix } from './run-prefix';

const ruleIdOf = (f: SavedFailure & { file: string }): `replay.${string}` =>
  `replay.${path.basename(f.file, '.json')}`;

/** The replay rules and their one check, from the failures saved in `dir`. */
export function replayPhase(
  spec: LoadedSpec,
  dir: string,
): { rules: Rule[]; checks: Check[]; bad: string[] } {
  const { failures, bad } = loadFailures(dir);
  const rules: RuleOf<`replay.${string}`>[] = failures.map((f) => ({
    id: ruleIdOf(f),
    title: `${f.operationId} ${f.label}: ${f.expect === 'accept' ? 'accepted' : 'refused'} (${f.rule}, seed ${f.seed})`,
    source: `${f.method} ${f.template}`,
    kind: 'contract',
    tags: ['replay'],
  }));
  const check: Check = {
    name: 'replay saved failures',
    rules: rules.map((r) => r.id),
    async run(ctx): Promise<Finding[]> {
      const findings: Finding[] = [];
      for (const f of failures) {
        const rule = ruleIdOf(f);
        const op = spec.byId.get(f.operationId);
        if (!op) {
          findings.push(skip(rule, `the document has no operation ${f.operationId} any more`));
          continue;
        }
        const target = await pathFor(op, ctx);
        if ('skip' in target) {
          findings.push(skip(rule, target.skip));
          continue;
        }
        // Named with this run's prefix, lengths kept (a body saved by another run carries that run's prefix).
        const body = withRunPrefix(
          f.expect === 'accept' ? target.adjust(f.body) : f.body,
          op.requestBody?.schema,
          ctx.runPrefix,
          op.requestBody?.validate,
        );
        // A failure about the item id (`abc`) is sent to that text, not to a fresh item.
        const item = op.pathParamSpecs.length === 1 ? op.pathParamSpecs[0]?.name : undefined;
        const at =
          f.id !== undefined && item ? op.path.replace(`{${item}}`, encodeURIComponent(f.id)) : target.path;
        const out =
          body === undefined
            ? { method: op.method.toUpperCase(), path: at, auth: { use: 'key' as const } }
            : bodyRequest(op, at, { json: body });
        const result = await ctx.client.send({ ...out, ...(f.query ? { query: f.query } : {}) });
        if (result.kind !== 'response') {
          findings.push(
            skip(rule, result.kind === 'error' ? (result.exchange.error ?? 'no answer') : result.reason),
          );
          continue;
        }
        const status = result.response.status;
        findings.push(
          f.statuses.includes(status)
            ? pass(rule, result.exchange)
            : fail(
                rule,
                `still failing: expected ${f.statuses.join(' or ')}, got ${status}\n${f.curl}`,
                result.exchange,
              ),
        );
      }
      return findings;
    },
  };
  return { rules, checks: [check], bad };
}

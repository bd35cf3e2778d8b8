/**
 * `--replay`: every saved failure sent again, to a fresh item where it needs one. Each is a rule of its own:
 * pass when the server now answers as the document says (fixed, and its file removed), fail when it still does not.
 */
import path from 'node:path';
import type { LoadedSpec } from '../../spec/load';
import { fail, pass, skip, type Check, type RunContext } from '../execute/check-context';
import { pathFor } from '../generate/bodies';
import type { Finding, Rule } from '../types';
import { forgetFailure, type SavedFailure } from './failures';
import { problemOf, sendCase } from './send';

const ruleIdOf = (file: string): string => `fuzz.replay.${path.basename(file, '.json')}`;

/** One rule and one check per saved failure. */
export function replayPlan(
  spec: LoadedSpec,
  failures: Array<[string, SavedFailure]>,
): { rules: Rule[]; checks: Check[] } {
  const rules = failures.map(([file, f]) => ({
    id: ruleIdOf(file),
    title: `saved failure of ${f.operationId} (${f.phase}): ${f.label}`,
    source: file,
    kind: 'contract' as const,
    tags: ['fuzz', 'replay'],
  }));
  const checks = failures.map(([file, f]) => replayCheck(spec, file, f));
  return { rules, checks };
}

function replayCheck(spec: LoadedSpec, file: string, saved: SavedFailure): Check {
  const rule = ruleIdOf(file);
  return {
    name: `replay ${path.basename(file)}`,
    rules: [rule],
    async run(ctx: RunContext): Promise<Finding[]> {
      const op = spec.byId.get(saved.operationId);
      if (!op) return [fail(rule, `the document has no operation ${saved.operationId} any more`)];
      const found = await pathFor(op, ctx);
      if ('skip' in found) return [skip(rule, found.skip)];
      const request =
        saved.expect === 'accept' && saved.request.body !== undefined
          ? { ...saved.request, body: found.adjust(saved.request.body) }
          : saved.request;
      const itemParam = op.pathParamSpecs.length === 1 ? op.pathParamSpecs[0]?.name : undefined;
      const result = await sendCase(ctx, op, { path: found.path, itemParam }, request);
      if (result.kind === 'skipped') return [skip(rule, result.reason, result.exchange)];
      const problem = problemOf(op, { expect: saved.expect, request }, result);
      if (problem)
        return [
          fail(rule, `still failing: ${saved.label}: ${problem}; replay: ${saved.curl}`, result.exchange),
        ];
      await forgetFailure(file);
      return [pass(rule, result.exchange)];
    },
  };
}

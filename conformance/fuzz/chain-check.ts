/** `fuzz.<create operationId>.chains`: the rule and check of a resource's stateful chain (fuzz/chains.ts). */
import type { OperationSpec } from '../../spec/load';
import type { Resource } from '../../spec/resources';
import { seededRandom, skip, type Check, type RunContext } from '../send/check-context';
import type { Finding, Rule } from '../types';
import { chainWalk } from './chains';
import type { FuzzSettings } from './fuzz-check';

/** Steps of a walk: --max-examples, within these bounds. */
const MIN_STEPS = 5;
const MAX_STEPS = 30;

export const chainsRuleId = (op: OperationSpec): string => `fuzz.${op.operationId}.chains`;

/** The chains rule of the create `op` of `resource`, when the resource can be read back. */
export function chainsRules(op: OperationSpec, resource: Resource): Rule[] {
  if (!resource.operations.read || !resource.itemPath) return [];
  return [
    {
      id: chainsRuleId(op),
      title:
        `${resource.name}: a random walk (--fuzz) holds: available after create, a replace read back, a refused ` +
        'write changes nothing, gone after delete, ids never reused, writes without a valid credential refused',
      source: `${op.method.toUpperCase()} ${op.path}`,
      kind: 'contract',
      tags: ['fuzz', 'generated'],
    },
  ];
}

/** A stable stream per resource: the walk does not depend on the order the checks run in. */
function walkSeed(seed: number, op: OperationSpec): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const ch of op.operationId) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

/** The check: one walk of --max-examples steps (5 to 30), skipped under --read-only or past --fuzz-time. */
export function chainsCheck(op: OperationSpec, resource: Resource, s: FuzzSettings): Check {
  const rule = chainsRuleId(op);
  return {
    name: `${resource.name} fuzz chains`,
    rules: [rule],
    async run(ctx: RunContext): Promise<Finding[]> {
      if (ctx.readOnly) return [skip(rule, '--read-only: a chain writes')];
      if (Date.now() > s.deadline) return [skip(rule, '--fuzz-time spent before this phase')];
      const steps = Math.max(MIN_STEPS, Math.min(MAX_STEPS, s.maxExamples));
      return [await chainWalk(ctx, resource, rule, seededRandom(walkSeed(s.seed, op)), steps)];
    },
  };
}

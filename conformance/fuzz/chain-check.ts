/** `fuzz.<create operationId>.chains`: the rule and check of a resource's stateful chain (fuzz/chains.ts). */
import type { OperationSpec } from '../../spec/load';
import type { Resource } from '../../spec/resources';
import { skip, type Check, type RunContext } from '../send/check-context';
import type { Finding } from '../types';
import type { RuleOf } from '../rules';
import { chainWalk } from './chains';
import { opRandom } from './op-seed';
import type { FuzzSettings } from './fuzz-check';

/** Steps of a walk: --max-examples, within these bounds. */
const MIN_STEPS = 5;
const MAX_STEPS = 30;

export const chainsRuleId = (op: OperationSpec): `fuzz.${string}` => `fuzz.${op.operationId}.chains`;

/** The chains rule of the create `op` of `resource`, when the resource can be read back. */
export function chainsRules(op: OperationSpec, resource: Resource): RuleOf<`fuzz.${string}`>[] {
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

/** The check: one walk of --max-examples steps (5 to 30), skipped under --read-only or past --fuzz-time. */
export function chainsCheck(op: OperationSpec, resource: Resource, s: FuzzSettings): Check {
  const rule = chainsRuleId(op);
  return {
    name: `${resource.name} fuzz chains`,
    rules: [rule],
    // Alone, before the rest: no other check creates meanwhile, so a freed id, a stored refused create and the
    // list's first page are the walk's own to see.
    phase: 'first',
    async run(ctx: RunContext): Promise<Finding[]> {
      if (ctx.readOnly) return [skip(rule, '--read-only: a chain writes')];
      if (Date.now() > s.deadline) return [skip(rule, '--fuzz-time spent before this phase')];
      const steps = Math.max(MIN_STEPS, Math.min(MAX_STEPS, s.maxExamples));
      return [await chainWalk(ctx, resource, rule, opRandom(s.seed, op, 'chains:'), steps)];
    },
  };
}

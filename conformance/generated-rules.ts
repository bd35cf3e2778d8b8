/** Pure: the document (its operations and resources) -> the generated rules and the checks that judge them. */
import type { LoadedSpec } from '../spec/load';
import type { ResourceModel } from '../spec/resources';
import type { Check } from './send/check-context';
import type { Rule } from './types';
import { bodyCheck, bodyRules } from './build/bodies';
import { crudCheck } from './lifecycle/crud';
import { crudRules } from './lifecycle/crud-rules';
import { paramRules, paramsCheck } from './build/params';

export interface Generated {
  rules: Rule[];
  checks: Check[];
}

/**
 * Lifecycle rules per resource, body rules per operation with a body, parameter rules per operation with a
 * parameter its schema constrains; `selected` (the run's --operation,
 * --tag, --path filters; null: all) keeps a resource with a selected operation and a selected operation.
 */
export function generateRules(
  spec: LoadedSpec,
  model: ResourceModel,
  selected: ReadonlySet<string> | null = null,
): Generated {
  const rules: Rule[] = [];
  const checks: Check[] = [];
  const kept = (ids: Array<string | undefined>) =>
    !selected || ids.some((id) => id !== undefined && selected.has(id));
  for (const resource of model.resources) {
    if (!kept(Object.values(resource.operations))) continue;
    const mine = crudRules(resource);
    if (mine.length === 0) continue;
    rules.push(...mine);
    checks.push(crudCheck(resource));
  }
  for (const op of spec.operations) {
    if (!kept([op.operationId])) continue;
    const mine = bodyRules(op);
    if (mine.length > 0) {
      rules.push(...mine);
      checks.push(bodyCheck(op));
    }
    // The parameter cases that need no item: sent whether or not a create succeeds.
    const params = paramRules(op, spec);
    if (params.length === 0) continue;
    rules.push(...params);
    checks.push(paramsCheck(op, spec));
  }
  return { rules, checks };
}

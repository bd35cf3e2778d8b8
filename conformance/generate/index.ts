/** Pure: the document (its operations and resources) -> the generated rules and the checks that judge them. */
import type { LoadedSpec } from '../../spec/load';
import type { ResourceModel } from '../../spec/resources';
import type { Check } from '../execute/check-context';
import type { Rule } from '../types';
import { bodyCheck, bodyRules } from './bodies';
import { crudCheck } from './crud';
import { crudRules } from './crud-rules';

export interface Generated {
  rules: Rule[];
  checks: Check[];
}

/** Lifecycle rules per resource, body rules per operation with a body. */
export function generateRules(spec: LoadedSpec, model: ResourceModel): Generated {
  const rules: Rule[] = [];
  const checks: Check[] = [];
  for (const resource of model.resources) {
    const mine = crudRules(resource);
    if (mine.length === 0) continue;
    rules.push(...mine);
    checks.push(crudCheck(resource));
  }
  for (const op of spec.operations) {
    const mine = bodyRules(op);
    if (mine.length === 0) continue;
    rules.push(...mine);
    checks.push(bodyCheck(op));
  }
  return { rules, checks };
}

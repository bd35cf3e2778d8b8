/** Seed records, keyed by resource name (`{ "books": [ … ] }`), each checked against its create schema. */
import { formatAjvErrors, type CompiledSpec } from '../../spec/compile';
import type { Resource } from '../../spec/resource-types';
import type { ResourceModel } from '../../spec/resources';
import type { SeedData } from './stores/types';

/** Pure: the first problem of `seed` (`books/0: /title must be string`), or undefined when it is good. */
export function checkSeed(seed: unknown, model: ResourceModel, spec: CompiledSpec): string | undefined {
  if (typeof seed !== 'object' || seed === null || Array.isArray(seed))
    return 'must be an object of arrays keyed by resource name';
  for (const [name, entries] of Object.entries(seed as SeedData)) {
    const resource = model.resources.find((r) => r.name === name);
    if (!resource)
      return `${name}: the document has no resource of that name (resources: ${model.resources.map((r) => r.name).join(', ') || 'none'})`;
    if (!Array.isArray(entries)) return `${name} must be an array`;
    for (const [i, entry] of entries.entries()) {
      const problem = seedEntryProblem(spec, resource, entry);
      if (problem) return `${name}/${i}${problem === 'must be an object' ? ' ' : ': '}${problem}`;
    }
  }
  return undefined;
}

/** Pure: why the store would refuse `entry` as a record of `resource` (its create schema), or undefined. */
export function seedEntryProblem(spec: CompiledSpec, resource: Resource, entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'must be an object';
  const validate = spec.byId.get(resource.operations.create ?? '')?.requestBody?.validate;
  return validate && !validate(entry) ? formatAjvErrors(validate.errors, 'entry') : undefined;
}

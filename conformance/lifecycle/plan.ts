/**
 * Pure: the one lifecycle walker's order. Given the compiled document and one of its resources (spec/resources.ts),
 * the steps a client takes on one item, in order: create -> read back -> listed -> replace -> patch -> update ->
 * delete -> read after delete (gone) -> delete again. Only the steps whose operations the document has; the id
 * the create answers is carried into every later step by `stepRequest`. The runner's lifecycle rules
 * (generate/lifecycle.ts), the fuzz chains (fuzz/chains.ts, in a random order) and the document walk
 * (lifecycle/document-walk.ts) all take their steps from here.
 */
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import type { Action, Resource } from '../../spec/resource-types';
import type { Schema } from '../../spec/schema-shape';
import { itemPathOf } from '../generate/requests';

/** A step of an item's lifecycle; `change` is a replace, a patch or an update (a `PUT` on the collection). */
export type LifecycleStepName =
  'create' | 'read' | 'listed' | 'replace' | 'patch' | 'update' | 'delete' | 'gone' | 'delete-again';

export interface LifecycleStep {
  name: LifecycleStepName;
  /** The resource action the step calls (`gone` reads, `delete-again` removes). */
  action: Action;
  op: OperationSpec;
}

/** The action each step calls, in lifecycle order. */
const ORDER: ReadonlyArray<readonly [LifecycleStepName, Action]> = [
  ['create', 'create'],
  ['read', 'read'],
  ['listed', 'list'],
  ['replace', 'replace'],
  ['patch', 'patch'],
  ['update', 'update'],
  ['delete', 'remove'],
  ['gone', 'read'],
  ['delete-again', 'remove'],
];

/** The operation of `action` on `resource`, when the document has it. */
export function operationOf(
  spec: Pick<LoadedSpec, 'byId'>,
  resource: Resource,
  action: Action,
): OperationSpec | undefined {
  const id = resource.operations[action];
  return id ? spec.byId.get(id) : undefined;
}

/**
 * The ordered lifecycle of `resource`: nothing without a create; `gone` and `delete-again` only after a delete.
 * A walker stops after the create where the answer carries no id to go on with.
 */
export function lifecycleSteps(spec: Pick<LoadedSpec, 'byId'>, resource: Resource): LifecycleStep[] {
  const create = operationOf(spec, resource, 'create');
  if (!create) return [];
  const steps: LifecycleStep[] = [];
  for (const [name, action] of ORDER) {
    const op = operationOf(spec, resource, action);
    if (op) steps.push({ name, action, op });
  }
  const deletes = steps.some((s) => s.name === 'delete');
  return steps.filter((s) => deletes || (s.name !== 'gone' && s.name !== 'delete-again'));
}

/** What a client may set on an item: the replace's body schema, else the create's (a JSON Patch changes these). */
export function writableSchema(spec: Pick<LoadedSpec, 'byId'>, resource: Resource): Schema | undefined {
  return operationOf(spec, resource, resource.operations.replace ? 'replace' : 'create')?.requestBody?.schema;
}

/** The path of `step` for the item `id` (`/pets/{petId}` -> `/pets/7`); collection steps keep their path. */
export function stepPath(resource: Resource, step: Pick<LifecycleStep, 'op'>, id: string): string {
  return itemPathOf(resource, id, step.op.path);
}

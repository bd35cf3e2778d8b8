/**
 * Pure: the one lifecycle walker's order. Given the compiled document and one of its resources (spec/resources.ts),
 * the steps a client takes on one item, in order: create -> read back -> listed -> replace -> patch -> update ->
 * the item's actions (`POST /schedules/{id}/deactivate`: the operations spec/item-scope.ts scopes to one item) ->
 * delete -> read after delete (gone) -> delete again. Only the steps whose operations the document has; the id
 * the create answers is carried into every later step by `stepPath`. The runner's lifecycle rules
 * (lifecycle/run-lifecycle.ts), the fuzz chains (fuzz/chains.ts, in a random order) and the document walk
 * (lifecycle/document-walk.ts) all take their steps from here; each says only what it expects of a step.
 */
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import type { Action, Resource } from '../../spec/resource-types';
import type { ResourceModel } from '../../spec/resources';
import type { Schema } from '../../spec/schema-shape';
import { itemPathOf } from '../build/requests';

export type LifecycleStepName =
  | 'create'
  | 'read'
  | 'listed'
  | 'replace'
  | 'patch'
  | 'update'
  | 'action'
  | 'delete'
  | 'gone'
  | 'delete-again';

export interface LifecycleStep {
  name: LifecycleStepName;
  op: OperationSpec;
}

type Document = Pick<LoadedSpec, 'byId' | 'operations'>;

/** The action each step calls, in lifecycle order (the item's actions come before the delete). */
const BEFORE_ACTIONS: ReadonlyArray<readonly [LifecycleStepName, Action]> = [
  ['create', 'create'],
  ['read', 'read'],
  ['listed', 'list'],
  ['replace', 'replace'],
  ['patch', 'patch'],
  ['update', 'update'],
];
const AFTER_ACTIONS: ReadonlyArray<readonly [LifecycleStepName, Action]> = [
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
 * The ordered lifecycle of `resource`: nothing without a create; with `model`, the item's actions in document
 * order; `gone` and `delete-again` only after a delete. A walker stops after the create where the answer
 * carries no id to go on with.
 */
export function lifecycleSteps(
  spec: Document,
  resource: Resource,
  model?: Pick<ResourceModel, 'itemScopes'>,
): LifecycleStep[] {
  if (!operationOf(spec, resource, 'create')) return [];
  const named = (order: typeof BEFORE_ACTIONS): LifecycleStep[] =>
    order.flatMap(([name, action]) => {
      const op = operationOf(spec, resource, action);
      return op ? [{ name, op }] : [];
    });
  const actions = spec.operations
    .filter((op) => model?.itemScopes.get(op.operationId)?.resource.name === resource.name)
    .map((op): LifecycleStep => ({ name: 'action', op }));
  const after = operationOf(spec, resource, 'remove') ? named(AFTER_ACTIONS) : [];
  return [...named(BEFORE_ACTIONS), ...actions, ...after];
}

/** What a client may set on an item: the replace's body schema, else the create's (a JSON Patch changes these). */
export function writableSchema(spec: Pick<LoadedSpec, 'byId'>, resource: Resource): Schema | undefined {
  return operationOf(spec, resource, resource.operations.replace ? 'replace' : 'create')?.requestBody?.schema;
}

/** The path of `step` for the item `id` (`/pets/{petId}` -> `/pets/7`); collection steps keep their path. */
export function stepPath(resource: Resource, step: Pick<LifecycleStep, 'op'>, id: string): string {
  return itemPathOf(resource, id, step.op.path);
}

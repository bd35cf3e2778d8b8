/**
 * Everything the stages need about an operation that does not change between requests, worked out once per
 * document at load: the route stage finds the operation's record with the operation itself, so no stage looks
 * up a body check, a resource action, an item scope or chaos settings by operationId per request.
 */
import type { CompiledSpec, OperationSpec } from '../../spec/compile';
import type { ResourceModel } from '../../spec/resources';
import type { BodyCheck } from './body-check';
import { callbacksOf } from './callbacks';
import { chaosFor } from './chaos';
import type { BoundOperation } from './context';
import { successStatus } from './records';
import type { MockConfig } from './settings';

/** Pure apart from reading the document: each operation of `spec` with its bound record. */
export function bindOperations(
  spec: CompiledSpec,
  model: ResourceModel,
  bodies: ReadonlyMap<string, BodyCheck>,
  config: Pick<MockConfig, 'latency' | 'faults' | 'operationChaos'>,
): Map<OperationSpec, BoundOperation> {
  const out = new Map<OperationSpec, BoundOperation>();
  for (const operation of spec.operations) {
    const id = operation.operationId;
    const binding = model.byOperation.get(id);
    // One literal of one shape for every operation: the stages read these fields on every request.
    out.set(
      operation,
      Object.freeze({
        operation,
        binding,
        successStatus: binding ? successStatus(operation, binding.action) : undefined,
        itemScope: binding ? undefined : model.itemScopes.get(id),
        bodyCheck: bodies.get(id),
        chaos: chaosFor(operation, config),
        hasParameters:
          operation.pathParamSpecs.length +
            operation.queryParams.length +
            operation.headerParams.length +
            operation.cookieParams.length >
            0 || operation.querystring !== undefined,
        hasCallbacks: callbacksOf(spec.document, operation) !== undefined,
      }),
    );
  }
  return out;
}

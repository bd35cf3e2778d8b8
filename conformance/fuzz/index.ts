/** `--fuzz`: the rules and checks of the fuzz phase for the operations a run selects (those with a JSON body). */
import type { LoadedSpec } from '../../spec/load';
import type { ResourceModel } from '../../spec/resources';
import type { Check } from '../send/check-context';
import type { Rule } from '../types';
import { chainsCheck, chainsRules } from './chain-check';
import { fuzzCheck, fuzzRules, type FuzzSettings } from './fuzz-check';
import { parametersCheck, parametersRules } from './parameters';

export type { FuzzSettings };

/**
 * One check per operation with a JSON body among `selected` (null: all); one per operation with query parameters
 * or an integer item id (`parameters`); one stateful chain per resource whose create is selected.
 */
export function fuzzPhase(
  spec: LoadedSpec,
  model: ResourceModel,
  selected: ReadonlySet<string> | null,
  settings: FuzzSettings,
): { rules: Rule[]; checks: Check[] } {
  const ops = spec.operations.filter(
    (op) => op.requestBody?.kind === 'json' && (!selected || selected.has(op.operationId)),
  );
  const creates = (id: string) => {
    const b = model.byOperation.get(id);
    return b?.action === 'create' ? b.resource : undefined;
  };
  const chosen = spec.operations.filter((op) => !selected || selected.has(op.operationId));
  const withParams = chosen.filter((op) => parametersRules(op).length > 0);
  const chained = chosen.flatMap((op) => {
    const resource = creates(op.operationId);
    return resource && chainsRules(op, resource).length > 0 ? [{ op, resource }] : [];
  });
  return {
    rules: [
      ...ops.flatMap((op) => fuzzRules(op, creates(op.operationId) !== undefined)),
      ...withParams.flatMap(parametersRules),
      ...chained.flatMap(({ op, resource }) => chainsRules(op, resource)),
    ],
    checks: [
      ...chained.map(({ op, resource }) => chainsCheck(op, resource, settings)),
      ...ops.map((op) => fuzzCheck(op, settings, creates(op.operationId))),
      ...withParams.map((op) => parametersCheck(op, settings)),
    ],
  };
}

/** `--fuzz`: the rules and checks of the fuzz phase for the operations a run selects (those with a JSON body). */
import type { LoadedSpec } from '../../spec/load';
import type { ResourceModel } from '../../spec/resources';
import type { Check } from '../send/check-context';
import type { Rule } from '../types';
import { fuzzCheck, fuzzRules, type FuzzSettings } from './fuzz-check';

export type { FuzzSettings };

/** One check per operation with a JSON body among `selected` (null: all). */
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
  return {
    rules: ops.flatMap((op) => fuzzRules(op, creates(op.operationId) !== undefined)),
    checks: ops.map((op) => fuzzCheck(op, settings, creates(op.operationId))),
  };
}

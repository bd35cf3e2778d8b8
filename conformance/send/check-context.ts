/** What every executable check receives, and the shape of a check: data in, findings out. */
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import type { ResourceModel } from '../../spec/resources';
import type { Exchange, Finding } from '../types';
import type { RuleId } from '../rules';
import type { Client, SendResult } from './client';
import { seededRandom } from '../../spec/random';
import type { CallbackReceiving } from './callback-receiver';
import type { SeenValues } from './seen-values';

export { seededRandom };

export interface RunContext {
  spec: LoadedSpec;
  client: Client;
  /** Prefix of every name the run creates, so its data is recognisable. */
  runPrefix: string;
  /** Seeded random numbers in [0, 1): a failure can be replayed with the same --seed. */
  random: () => number;
  hasQuotaKey: boolean;
  /** The document's resources (spec/resources.ts): what the lifecycle and body rules are generated from. */
  model: ResourceModel;
  /** `--read-only`: nothing but GET, HEAD and OPTIONS is sent. */
  readOnly: boolean;
  /** The rate-limit probe: a safe GET without path parameters that documents rate-limit headers. */
  probe: { op: OperationSpec } | { op?: undefined; reason: string };
  /** Values the server named in the run's earlier answers, for reads addressed by a name (send/seen-values.ts). */
  seen: SeenValues;
  /** `--callbacks-listen`: the receiver the callback rules point callbacks at; absent without it. */
  callbacks?: CallbackReceiving;
}

export interface Check {
  name: string;
  /** The rules this check produces findings for. */
  rules: RuleId[];
  /** `first`: alone before the rest (needs an otherwise quiet key); `last`: alone at the end (spends quota). */
  phase?: 'first' | 'last';
  run(ctx: RunContext): Promise<Finding[]>;
}

export const pass = (ruleId: RuleId, exchange?: Exchange): Finding => ({ ruleId, outcome: 'pass', exchange });
export const fail = (ruleId: RuleId, problem: string, exchange?: Exchange, steps?: Exchange[]): Finding => ({
  ruleId,
  outcome: 'fail',
  problem,
  exchange,
  steps: steps && steps.length > 0 ? steps : undefined,
});
export const skip = (ruleId: RuleId, problem: string, exchange?: Exchange): Finding => ({
  ruleId,
  outcome: 'skip',
  problem,
  exchange,
});

/** A send that produced no response to judge: a skip (rate limit) or a failure (no answer). */
export function unusable(ruleId: RuleId, result: SendResult): Finding | undefined {
  if (result.kind === 'skipped') return skip(ruleId, result.reason, result.exchange);
  if (result.kind === 'error')
    return fail(ruleId, `no response: ${result.exchange.error ?? ''}`, result.exchange);
  return undefined;
}

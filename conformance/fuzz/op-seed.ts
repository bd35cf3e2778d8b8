/** A seeded stream per operation: its cases do not depend on the order the run's checks interleave in. */
import type { OperationSpec } from '../../spec/load';
import { seededRandom } from '../send/check-context';

/** The random source of `op`'s cases under `seed` (`salt` separates the streams of one operation's rules). */
export function opRandom(seed: number, op: OperationSpec, salt = ''): () => number {
  let h = seed >>> 0;
  for (const ch of `${salt}${op.operationId}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return seededRandom(h);
}

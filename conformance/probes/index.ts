/** Every generated check, in the order the runner starts them. */
import type { Check } from '../send/check-context';
import { authMatrixCheck } from './auth-matrix';
import { quotaCheck } from './quota';
import { rateLimitDecrementCheck } from './rate-limit-decrement';
import { requestBodiesCheck } from './request-bodies';
import { undocumentedMethodsCheck } from './undocumented-methods';
import { versionCheck } from './version';
import { everyOperationCheck } from './every-operation';
import { callbacksCheck } from '../callbacks/check';

export const CHECKS: readonly Check[] = [
  rateLimitDecrementCheck,
  versionCheck,
  authMatrixCheck,
  requestBodiesCheck,
  everyOperationCheck,
  undocumentedMethodsCheck,
  callbacksCheck,
  quotaCheck,
];

/** §5, generated from the spec: every operation that requires auth refuses each bad credential with 401. */
import { errorBodyProblem } from '../check/expectations';
import type { Auth } from '../execute/client';
import { fail, pass, unusable, type Check, type RunContext } from '../execute/check-context';
import type { Finding } from '../types';
import { operationRequest } from './operation-request';

interface Variant {
  rule: string;
  label: string;
  auth: (prefix: string) => Auth;
}

const VARIANTS: Variant[] = [
  { rule: 'auth.missing-key', label: 'no Authorization header', auth: () => ({ use: 'none' }) },
  {
    rule: 'auth.wrong-scheme',
    label: 'Basic credentials',
    auth: (p) => ({ use: 'raw', value: `Basic ${Buffer.from(`${p}:secret`).toString('base64')}` }),
  },
  { rule: 'auth.empty-bearer', label: 'empty bearer token', auth: () => ({ use: 'raw', value: 'Bearer ' }) },
  {
    rule: 'auth.unknown-key',
    label: 'unknown key',
    auth: (p) => ({ use: 'raw', value: `Bearer ${p}-unknown-key` }),
  },
];

/** The auth matrix: each operation x each bad credential must give 401 with an Error body. */
export const authMatrixCheck: Check = {
  name: 'auth matrix',
  rules: VARIANTS.map((v) => v.rule),
  async run(ctx: RunContext): Promise<Finding[]> {
    const findings: Finding[] = [];
    for (const op of ctx.spec.operations.filter((o) => o.requiresAuth)) {
      for (const variant of VARIANTS) {
        const out = operationRequest(op, variant.auth(ctx.runPrefix), ctx.random, ctx.runPrefix);
        const result = await ctx.client.send(out);
        const bad = unusable(variant.rule, result);
        if (bad || result.kind !== 'response') {
          if (bad) findings.push(bad);
          continue;
        }
        const where = `${op.operationId} with ${variant.label}`;
        const { response, exchange } = result;
        if (response.status !== 401)
          findings.push(fail(variant.rule, `${where}: status ${response.status}, expected 401`, exchange));
        else {
          const problem = errorBodyProblem(ctx.spec, response);
          findings.push(problem ? fail(variant.rule, `${where}: ${problem}`, exchange) : pass(variant.rule));
        }
      }
    }
    return findings;
  },
};

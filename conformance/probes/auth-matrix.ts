/**
 * §5, generated from the document's security: every secured operation refuses each bad credential with 401,
 * per scheme it declares (http bearer or basic, apiKey in a header, a query parameter or a cookie).
 */
import type { OperationSpec } from '../../spec/load';
import { errorBodyProblem } from '../../spec/http/error-body';
import { isWrite, type Auth } from '../send/client';
import { fail, pass, unusable, type Check, type RunContext } from '../send/check-context';
import type { EngineRuleId } from '../rules';
import { schemeKind, type SecurityScheme } from '../send/credentials';
import type { Finding } from '../types';
import { operationRequest } from './operation-request';

interface Variant {
  rule: EngineRuleId;
  label: string;
  /**
   * Sent once per distinct security requirement rather than per operation: how a scheme's credential is parsed
   * does not differ between operations, and unauthenticated requests share one small per-address budget.
   */
  perRequirement?: boolean;
  /** The credential to send, or undefined when no such credential exists for this operation. */
  auth: (schemes: SecurityScheme[], accepted: SecurityScheme[], ctx: RunContext) => Auth | undefined;
}

const BEARER: SecurityScheme = { type: 'http', scheme: 'bearer' };
const BASIC: SecurityScheme = { type: 'http', scheme: 'basic' };

const VARIANTS: Variant[] = [
  { rule: 'auth.missing-key', label: 'no credential', auth: () => ({ use: 'none' }) },
  {
    // The real key, in a scheme the operation does not accept.
    rule: 'auth.wrong-scheme',
    label: 'the key in a scheme the operation does not accept',
    perRequirement: true,
    auth: (_schemes, accepted) => {
      const kinds = new Set(accepted.map(schemeKind));
      const wrong = [BASIC, BEARER].find((s) => !kinds.has(schemeKind(s)));
      return wrong ? { use: 'key-as', schemes: [wrong] } : undefined;
    },
  },
  {
    rule: 'auth.empty-bearer',
    label: 'an empty credential',
    auth: (schemes) => ({ use: 'as', schemes, value: '' }),
  },
  {
    rule: 'auth.unknown-key',
    label: 'an unknown key',
    auth: (schemes, _accepted, ctx) => ({ use: 'as', schemes, value: `${ctx.runPrefix}-unknown-key` }),
  },
];

/** The schemes of each alternative of `op`, resolved by name. */
function alternatives(op: OperationSpec, all: Record<string, SecurityScheme>): SecurityScheme[][] {
  return op.security.map((names) => names.flatMap((n) => (all[n] ? [all[n]] : [])));
}

/** The auth matrix: each secured operation x each bad credential must give 401 with an error body. */
export const authMatrixCheck: Check = {
  name: 'auth matrix',
  rules: VARIANTS.map((v) => v.rule),
  async run(ctx: RunContext): Promise<Finding[]> {
    const findings: Finding[] = [];
    // --read-only: writes are not sent, not even without a key (a broken server might perform them).
    const ops = ctx.spec.operations.filter((o) => o.requiresAuth && !(ctx.readOnly && isWrite(o.method)));
    const sent = new Set<string>();
    for (const op of ops) {
      const alts = alternatives(op, ctx.spec.securitySchemes);
      const first = alts[0] ?? [];
      const names = op.security[0]?.join(' + ') ?? '';
      const requirement = JSON.stringify(op.security);
      for (const variant of VARIANTS) {
        const auth = variant.auth(first, alts.flat(), ctx);
        if (!auth) continue;
        if (variant.perRequirement && sent.has(`${variant.rule} ${requirement}`)) continue;
        sent.add(`${variant.rule} ${requirement}`);
        const result = await ctx.client.send(operationRequest(op, auth, ctx.random, ctx.runPrefix));
        const bad = unusable(variant.rule, result);
        if (bad || result.kind !== 'response') {
          if (bad) findings.push(bad);
          continue;
        }
        const where = `${op.operationId} with ${variant.label} (${names})`;
        const { response, exchange } = result;
        if (response.status !== 401)
          findings.push(fail(variant.rule, `${where}: status ${response.status}, expected 401`, exchange));
        else {
          const problem = errorBodyProblem(ctx.spec, response, op.operationId);
          findings.push(problem ? fail(variant.rule, `${where}: ${problem}`, exchange) : pass(variant.rule));
        }
      }
    }
    return findings;
  },
};

/** Generated from the spec: on each documented path, a method the spec does not document must not succeed. */
import { errorBodyProblem } from '../check/expectations';
import { fail, pass, unusable, type Check, type RunContext } from '../execute/check-context';
import type { Finding } from '../types';
import { samplePath } from './operation-request';

// Least destructive first: if a server wrongly implements one, PATCH with no body harms least.
const CANDIDATES = ['patch', 'put', 'delete', 'post', 'get'];

/** One undocumented method per documented path. */
export const undocumentedMethodsCheck: Check = {
  name: 'undocumented methods',
  rules: ['methods.undocumented', 'assume.undocumented-method-405'],
  async run(ctx: RunContext): Promise<Finding[]> {
    const findings: Finding[] = [];
    const paths = [...new Set(ctx.spec.operations.map((o) => o.path))];
    for (const template of paths) {
      const documented = new Set(ctx.spec.operations.filter((o) => o.path === template).map((o) => o.method));
      const method = CANDIDATES.find((m) => !documented.has(m as never));
      if (!method) continue;
      const result = await ctx.client.send({
        method: method.toUpperCase(),
        path: samplePath(template),
        auth: { use: 'key' },
      });
      const where = `${method.toUpperCase()} ${template}`;
      for (const rule of this.rules) {
        const bad = unusable(rule, result);
        if (bad) findings.push(bad);
      }
      if (result.kind !== 'response') continue;
      const { response, exchange } = result;
      findings.push(
        response.status >= 200 && response.status < 300
          ? fail('methods.undocumented', `${where} succeeded with ${response.status}`, exchange)
          : pass('methods.undocumented', exchange),
      );
      const problem =
        response.status !== 405
          ? `status ${response.status}, expected 405`
          : errorBodyProblem(ctx.spec, response);
      findings.push(
        problem
          ? fail('assume.undocumented-method-405', `${where}: ${problem}`, exchange)
          : pass('assume.undocumented-method-405', exchange),
      );
    }
    return findings;
  },
};

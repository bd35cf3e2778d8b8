/**
 * Generated from the document: on each documented path, a method it does not document must not succeed;
 * as an assumption, it gets 405 with an error body and an Allow listing the documented methods (RFC 9110 §15.5.6).
 */
import { errorBodyProblem } from '../../spec/http/error-body';
import { fail, pass, unusable, type Check, type RunContext } from '../send/check-context';
import type { RecordedResponse, Finding } from '../types';
import { samplePath } from './operation-request';

// Least destructive first: if a server wrongly implements one, PATCH with no body harms least.
const CANDIDATES = ['patch', 'put', 'delete', 'post', 'get'];

/** A problem with the Allow header of a 405, or undefined when it lists every documented method. */
export function allowProblem(res: RecordedResponse, documented: readonly string[]): string | undefined {
  const raw = res.headers.allow;
  if (raw === undefined) return '405 without an Allow header';
  const listed = new Set(raw.split(',').map((m) => m.trim().toUpperCase()));
  const missing = documented.map((m) => m.toUpperCase()).filter((m) => !listed.has(m));
  return missing.length > 0 ? `Allow "${raw}" does not list ${missing.join(', ')}` : undefined;
}

/** One undocumented method per documented path (only GET with --read-only). */
export const undocumentedMethodsCheck: Check = {
  name: 'undocumented methods',
  rules: ['methods.undocumented', 'assume.undocumented-method-405'],
  async run(ctx: RunContext): Promise<Finding[]> {
    const findings: Finding[] = [];
    const paths = [...new Set(ctx.spec.operations.map((o) => o.path))];
    const candidates = ctx.readOnly ? ['get'] : CANDIDATES;
    for (const template of paths) {
      const documented = ctx.spec.operations
        .filter((o) => o.path === template)
        .map((o) => o.method as string);
      const method = candidates.find((m) => !documented.includes(m));
      if (!method) continue;
      const result = await ctx.client.send({
        method: method.toUpperCase(),
        path: samplePath(template),
        auth: { use: 'key' },
        outsideContract: true,
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
          : (errorBodyProblem(ctx.spec, response) ?? allowProblem(response, documented));
      findings.push(
        problem
          ? fail('assume.undocumented-method-405', `${where}: ${problem}`, exchange)
          : pass('assume.undocumented-method-405', exchange),
      );
    }
    return findings;
  },
};

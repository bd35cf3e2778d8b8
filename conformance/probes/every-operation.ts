/**
 * Every selected operation is called at least once with a valid request, whether or not a lifecycle reaches it:
 * a plain read (a list whose filters are all optional), a computation on path values, an action. Path values
 * come from the parameter's own example, default or enum first, else from its schema; required query and header
 * parameters are filled in by the client; a body is generated from its schema, with the run's prefix. The answer is judged by the
 * response rules like any other; this rule says only whether the operation was reached.
 */
import type { OperationSpec } from '../../spec/load';
import type { ParamSpec } from '../../spec/compile';
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import { isWrite } from '../send/client';
import { generateValid } from '../generate/values';
import { bodyRequest } from '../build/requests';
import { readsByName } from '../build/seen-path';
import { unknownParamText } from '../generate/param-values';
import type { Finding } from '../types';

const RULE = 'operations.reached';

export const everyOperationCheck: Check = {
  name: 'every operation',
  rules: [RULE],
  async run(ctx: RunContext): Promise<Finding[]> {
    const findings: Finding[] = [];
    // Fewest path parameters first: a list's answer names the values its items' reads are sent with.
    const ordered = [...ctx.spec.operations].sort((a, b) => a.pathParams.length - b.pathParams.length);
    for (const op of ordered) {
      if (ctx.readOnly && isWrite(op.method)) {
        findings.push(skip(RULE, `--read-only: ${op.operationId} writes`));
        continue;
      }
      const result = await ctx.client.send(validRequest(op, ctx));
      const bad = unusable(RULE, result);
      if (bad || result.kind !== 'response') {
        findings.push(bad ?? skip(RULE, 'no response'));
        continue;
      }
      findings.push(
        result.response.status >= 500
          ? fail(RULE, `${op.operationId}: a valid request got ${result.response.status}`, result.exchange)
          : pass(RULE, result.exchange),
      );
    }
    return findings;
  },
};

/**
 * One valid request for `op`: its path filled with believable values (the document's own first, then, on a read,
 * what the server named in earlier answers), a body from its schema. A write addresses a well-formed value that
 * names nothing where one can be written: a generated id may name an item another check is working on, or data
 * the run did not make (`PUT /todos/87` overwrote the lifecycle's item between its replace and its read).
 */
function validRequest(op: OperationSpec, ctx: RunContext) {
  const seen = readsByName(op) ? ctx.seen.pathValues(op) : {};
  const write = isWrite(op.method);
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = op.pathParamSpecs.find((p) => p.name === name);
    const unknown = write && param ? unknownParamText(param, ctx.runPrefix) : undefined;
    const given = param && documentValue(param);
    const text = unknown ?? given ?? seen[name] ?? (param ? paramValue(param, ctx) : 1);
    return encodeURIComponent(String(text));
  });
  if (!op.requestBody) return { method: op.method.toUpperCase(), path, auth: { use: 'key' as const } };
  // Generated, not the document's example: whatever the run creates carries its prefix (the cleanup finds it).
  // Written as the operation documents its body (JSON, a form, multipart); one the runner cannot build is skipped.
  const body = generateValid(op.requestBody.schema, ctx.random, ctx.runPrefix);
  return bodyRequest(op, path, { json: body, label: ctx.runPrefix });
}

/** The parameter's own example, default or first enum value, when valid. */
function documentValue(param: ParamSpec): unknown {
  const s = param.schema as { example?: unknown; examples?: unknown[]; default?: unknown; enum?: unknown[] };
  const given = s.example ?? s.examples?.[0] ?? s.default ?? s.enum?.[0];
  return given !== undefined && param.validate(given) ? given : undefined;
}

/** The parameter's own example, default or first enum value, else a valid value generated from its schema. */
export function paramValue(param: ParamSpec, ctx: Pick<RunContext, 'random' | 'runPrefix'>): unknown {
  const given = documentValue(param);
  if (given !== undefined) return given;
  const value = generateValid(param.schema, ctx.random, ctx.runPrefix);
  return typeof value === 'object' ? 1 : value;
}

/**
 * `params.<operationId>.<case>`: the parameter cases that need no state, for every selected operation whether or
 * not a create succeeds (generate/param-cases.ts): a path value its schema forbids (`path-<name>`), a query
 * value its schema forbids or a required one left out (`query-<name>`), and a well-formed id no run made on a GET
 * or DELETE of `…/{id}` (`unknown-id`). A finding is what the document says is wrong: a 2xx to a value it forbids
 * (invalid input accepted) and any 5xx; a status it does not document is `response.documented-status`'s, judged
 * on every answer of the run.
 */
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import { acceptedInvalidProblem } from '../../spec/http/response-checks';
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import { isWrite, type Outgoing, type SendResult } from '../send/client';
import { missingRequired } from '../send/required-params';
import type { Finding } from '../types';
import type { RuleId, RuleOf } from '../rules';
import { fillPath, paramCases, type ParamCase } from '../generate/param-cases';
import { bodyRequest } from './requests';
import { learnAbove, pathTexts } from './seen-path';
import { generateValid } from '../generate/values';

export const paramRuleId = (op: OperationSpec, name: string): `params.${string}` =>
  `params.${op.operationId}.${name}`;

/** The title of a case's rule (its name: `path-<p>`, `query-<p>`, `unknown-id`). */
function titleOf(op: OperationSpec, c: ParamCase): string {
  const [where, ...rest] = c.name.split('-');
  const param = rest.join('-');
  if (c.name === 'unknown-id')
    return `${op.operationId} with an id no one created answers without a 5xx (its status judged by response.documented-status)`;
  return where === 'path'
    ? `${op.operationId} refuses a ${param} path value its schema forbids (type, format, bounds, enum) or left empty: no 2xx, no 5xx`
    : `${op.operationId} refuses a query ${param} its schema forbids (type, format, bounds, enum; left out when required): no 2xx, no 5xx`;
}

/** The rules of `op`'s parameter cases, one per case name; none where nothing can be probed. */
export function paramRules(op: OperationSpec, spec?: LoadedSpec): RuleOf<`params.${string}`>[] {
  const rules = new Map<string, RuleOf<`params.${string}`>>();
  for (const c of paramCases(op, 'conformance', spec))
    if (!rules.has(c.name))
      rules.set(c.name, {
        id: paramRuleId(op, c.name),
        title: titleOf(op, c),
        source: `${op.method.toUpperCase()} ${op.path}`,
        kind: 'contract',
        tags: ['generated', 'params'],
      });
  return [...rules.values()];
}

/** One case's request: the path filled, a valid body where the operation takes one, the query as the case says. */
function requestOf(op: OperationSpec, c: ParamCase, body: unknown, ctx: RunContext): Outgoing {
  const path = fillPath(op.path, c.path);
  // Built for `op`: a path no template matches (a value left empty) is still a call of it (send/client.ts).
  const out: Outgoing = {
    ...(body === undefined
      ? { method: op.method.toUpperCase(), path, auth: { use: 'key' } }
      : bodyRequest(op, path, { json: body, label: ctx.runPrefix })),
    operation: op.operationId,
  };
  if (c.omit === undefined) return { ...out, query: c.query };
  // Left out on purpose: sent exactly, with every other required parameter filled in as the client would.
  const filled = missingRequired(op, {
    query: (n) => n in c.query || n === c.omit,
    headers: out.headers ?? {},
  });
  return {
    ...out,
    query: { ...filled.query, ...c.query },
    headers: { ...filled.headers, ...out.headers },
    exact: true,
  };
}

/** The verdict of one answer: a 5xx, or a 2xx to a value the document forbids, fails. */
function judge(rule: RuleId, c: ParamCase, result: Extract<SendResult, { kind: 'response' }>): Finding {
  const { status } = result.response;
  if (status >= 500) return fail(rule, `${c.label}: answered ${status}`, result.exchange);
  const accepted = c.expect === 'refused' ? acceptedInvalidProblem(status, [c.problem ?? '']) : undefined;
  return accepted ? fail(rule, `${c.label}: ${accepted}`, result.exchange) : pass(rule, result.exchange);
}

/** The check of `op`'s parameter cases; each case is one finding of its rule. */
export function paramsCheck(op: OperationSpec, spec?: LoadedSpec): Check {
  const rules = paramRules(op, spec);
  return {
    name: `${op.operationId} parameters`,
    rules: rules.map((r) => r.id),
    async run(ctx: RunContext): Promise<Finding[]> {
      if (ctx.readOnly && isWrite(op.method))
        return rules.map((r) => skip(r.id, `--read-only: ${op.method.toUpperCase()} is not sent`));
      const body = op.requestBody
        ? generateValid(op.requestBody.schema, ctx.random, `${ctx.runPrefix}-params`, { full: true })
        : undefined;
      const findings: Finding[] = [];
      await learnAbove(op, ctx);
      const known = pathTexts(op, ctx);
      for (const c of paramCases(op, ctx.runPrefix, spec)) {
        const rule = paramRuleId(op, c.name);
        // The case's own value as it is; the others, on a read, ones the server named (its items exist).
        const path = { ...c.path, ...known, ...(c.own ? { [c.own]: c.path[c.own] ?? '' } : {}) };
        const result = await ctx.client.send(requestOf(op, { ...c, path }, body, ctx));
        const bad = unusable(rule, result);
        findings.push(
          bad ?? (result.kind === 'response' ? judge(rule, c, result) : skip(rule, 'no response')),
        );
      }
      return findings;
    },
  };
}

/**
 * `fuzz.<operationId>.parameters`: the values on both sides of each constraint of each query parameter (and each
 * one required left out), and a non-integer text for an integer item id. The document's validator of the
 * parameter says which must be accepted (a documented 2xx) and which refused (400, 404 for an id): never a 5xx.
 * GETs are sent under --read-only too.
 */
import { coerceParam, type OperationSpec, type ParamSpec } from '../../spec/load';
import { notFoundStatus, rejectStatuses, successStatuses } from '../../spec/statuses';
import { pathFor } from '../generate/bodies';
import { bodyRequest } from '../generate/requests';
import { generateValid } from '../generate/values';
import { withRunPrefix } from './run-prefix';
import { fail, pass, skip, type Check, type RunContext } from '../send/check-context';
import { isWrite, type Outgoing } from '../send/client';
import type { Finding, Rule } from '../types';
import { valuesFor } from './boundaries';
import { curlFor } from './curl';
import { saveFailure } from './failures';
import type { FuzzSettings } from './fuzz-check';
import { opRandom } from './op-seed';

interface ParamCase {
  label: string;
  query: Record<string, string>;
  /** Replaces the item id in the path. */
  id?: string;
  expect: 'accept' | 'reject';
}

export const parametersRuleId = (op: OperationSpec): string => `fuzz.${op.operationId}.parameters`;

const asText = (v: unknown): string | undefined =>
  Array.isArray(v) ? v.map(String).join(',') : v === null || typeof v === 'object' ? undefined : String(v);

/** The integer item id parameter of `op`, when it addresses one item by one. */
const integerId = (op: OperationSpec): ParamSpec | undefined =>
  op.pathParamSpecs.length === 1 && /integer|number/.test(String(op.pathParamSpecs[0]?.schema.type))
    ? op.pathParamSpecs[0]
    : undefined;

const valid = (op: OperationSpec, query: Record<string, string>) =>
  op.queryParams.every((p) =>
    query[p.name] === undefined ? !p.required : p.validate(coerceParam(p.schema, query[p.name] ?? '')),
  );

/** Pure: the parameter cases of `op` (none: the operation has nothing to probe). */
export function parameterCases(op: OperationSpec, random: () => number): ParamCase[] {
  const base: Record<string, string> = {};
  for (const p of op.queryParams.filter((q) => q.required))
    base[p.name] = asText(generateValid(p.schema, random, 'fuzz')) ?? '';
  const cases: Array<Omit<ParamCase, 'expect'>> = [];
  for (const p of op.queryParams) {
    if (p.required) {
      const query = { ...base };
      delete query[p.name];
      cases.push({ label: `query ${p.name} missing (required)`, query });
    }
    for (const { label, value } of valuesFor(p.schema as Record<string, unknown>, base[p.name])) {
      const text = asText(value);
      if (text !== undefined)
        cases.push({ label: `query ${p.name}: ${label}`, query: { ...base, [p.name]: text } });
    }
  }
  const id = integerId(op);
  if (id)
    for (const text of ['abc', '1.5'])
      cases.push({ label: `path ${id.name} "${text}"`, query: base, id: text });
  return cases.map((c) => ({ ...c, expect: c.id === undefined && valid(op, c.query) ? 'accept' : 'reject' }));
}

/** The parameters rule of `op`, when it has cases. */
export function parametersRules(op: OperationSpec): Rule[] {
  if (parameterCases(op, () => 0.5).length === 0) return [];
  return [
    {
      id: parametersRuleId(op),
      title: `${op.operationId}: query parameters and the item id (--fuzz) accepted when valid, refused when not`,
      source: `${op.method.toUpperCase()} ${op.path}`,
      kind: 'contract',
      tags: ['fuzz', 'generated'],
    },
  ];
}

function outgoing(
  op: OperationSpec,
  path: string,
  c: ParamCase,
  random: () => number,
  runPrefix: string,
): Outgoing {
  const at =
    c.id !== undefined ? op.path.replace(`{${integerId(op)?.name ?? ''}}`, encodeURIComponent(c.id)) : path;
  // A valid body, so that only the parameter decides.
  const body =
    op.requestBody?.kind === 'json'
      ? withRunPrefix(
          generateValid(op.requestBody.schema, random, 'fuzz', { full: true }),
          op.requestBody.schema,
          runPrefix,
          op.requestBody.validate,
        )
      : undefined;
  const out =
    body === undefined
      ? { method: op.method.toUpperCase(), path: at, auth: { use: 'key' as const } }
      : bodyRequest(op, at, { json: body });
  return { ...out, query: c.query };
}

/** The check: every case sent; the first wrong answer is the finding, with its curl. */
export function parametersCheck(op: OperationSpec, s: FuzzSettings): Check {
  const rule = parametersRuleId(op);
  return {
    name: `${op.operationId} fuzz parameters`,
    rules: [rule],
    async run(ctx: RunContext): Promise<Finding[]> {
      if (ctx.readOnly && isWrite(op.method))
        return [skip(rule, `--read-only: ${op.method.toUpperCase()} is not sent`)];
      const found = await pathFor(op, ctx);
      if ('skip' in found) return [skip(rule, found.skip)];
      let sent = 0;
      const random = opRandom(s.seed, op, 'parameters:');
      for (const c of parameterCases(op, random)) {
        if (Date.now() > s.deadline) break;
        const out = outgoing(op, found.path, c, random, ctx.runPrefix);
        const result = await ctx.client.send(out);
        if (result.kind === 'skipped') return [skip(rule, result.reason, result.exchange)];
        sent += 1;
        const status = result.kind === 'response' ? result.response.status : 0;
        const wanted =
          c.expect === 'accept'
            ? successStatuses(op).map(Number)
            : c.id !== undefined
              ? [...new Set([400, notFoundStatus(op)])]
              : rejectStatuses(op);
        if (wanted.includes(status)) continue;
        const query = new URLSearchParams(c.query).toString();
        const curl = curlFor({
          method: out.method,
          target: s.target,
          path: `${out.path ?? ''}${query ? `?${query}` : ''}`,
          body: out.body,
          contentType: out.headers?.['Content-Type'],
        });
        const side = c.expect === 'accept' ? 'a valid request' : 'an invalid request';
        const saved = s.failuresDir ? save(op, s, c, out, wanted, curl) : undefined;
        return [
          fail(
            rule,
            `${c.label}: ${side}: expected ${wanted.join(' or ')}, got ${status || 'no answer'}` +
              `${saved ? `; saved in ${saved} (--replay)` : ''}\n${curl}`,
            result.exchange,
          ),
        ];
      }
      return [sent === 0 ? skip(rule, '--fuzz-time spent before this phase') : pass(rule)];
    },
  };
}

/** The failure saved for --replay (the same file for the same case). */
function save(
  op: OperationSpec,
  s: FuzzSettings,
  c: ParamCase,
  out: Outgoing,
  statuses: number[],
  curl: string,
): string {
  return saveFailure(s.failuresDir ?? '', {
    rule: parametersRuleId(op),
    operationId: op.operationId,
    method: out.method,
    template: op.path,
    body: out.body === undefined ? undefined : (JSON.parse(out.body) as unknown),
    query: c.query,
    ...(c.id !== undefined ? { id: c.id } : {}),
    expect: c.expect,
    statuses,
    label: c.label,
    seed: s.seed,
    curl,
    found: new Date().toISOString(),
  });
}

/**
 * `fuzz.<operationId>.parameters`: the values on both sides of each constraint of each query and header parameter
 * (and each one required left out), an OpenAPI 3.2 `in: querystring` parameter valid, left out and broken, and a
 * non-integer text for an integer item id. The request rules the mock and
 * the proxy apply (spec/http/request-rules.ts) say which must be accepted (a documented 2xx) and which refused,
 * with which status (400, or the document's alternative; 404 for an id): never a 5xx.
 * GETs are sent under --read-only too.
 */
import type { OperationSpec, ParamSpec } from '../../spec/load';
import { inRefusalOrder, parameterProblems, type RequestProblem } from '../../spec/http/request-rules';
import { templatePattern } from '../../spec/http/path-template';
import { writeQuerystring } from '../../spec/http/querystring';
import { notFoundStatus, rejectStatuses, successStatuses } from '../../spec/statuses';
import { pathFor } from '../build/bodies';
import { bodyRequest, validQuerystring, withQuerystring } from '../build/requests';
import { generateInvalid, generateValid } from '../generate/values';
import { withRunPrefix } from './run-prefix';
import { fail, pass, skip, type Check, type RunContext } from '../send/check-context';
import { isWrite, type Outgoing } from '../send/client';
import type { Finding } from '../types';
import type { RuleOf } from '../rules';
import { valuesFor } from '../generate/constraint-values';
import { curlFor } from './curl';
import { saveFailure } from './failures';
import type { FuzzSettings } from './fuzz-check';
import { opRandom } from './op-seed';

export interface ParamCase {
  label: string;
  query: Record<string, string>;
  /** Header parameters sent (a required one with a valid value, unless the case leaves it out). */
  headers: Record<string, string>;
  /** Replaces the item id in the path. */
  id?: string;
  /** The whole query string (3.2 `in: querystring`), as sent: replaces the valid one the request has otherwise. */
  querystring?: string;
  expect: 'accept' | 'reject';
  /** For a refused query or header value: the status the request rules refuse it with. */
  status?: number;
}

export const parametersRuleId = (op: OperationSpec): `fuzz.${string}` => `fuzz.${op.operationId}.parameters`;

const asText = (v: unknown): string | undefined =>
  Array.isArray(v) ? v.map(String).join(',') : v === null || typeof v === 'object' ? undefined : String(v);

/** The integer item id parameter of `op`, when it addresses one item by one. */
const integerId = (op: OperationSpec): ParamSpec | undefined =>
  op.pathParamSpecs.length === 1 && /integer|number/.test(String(op.pathParamSpecs[0]?.schema.type))
    ? op.pathParamSpecs[0]
    : undefined;

/**
 * The request rules' refusal of a case as sent, if any: every location (path, query or querystring, header,
 * cookie) read by the rules the mock and the proxy apply, the first in their refusal order. `pathValues` are the
 * values of the path the case goes to; no cookie is sent; a case not about the querystring carries the valid one.
 */
function refusal(
  op: OperationSpec,
  c: Omit<ParamCase, 'expect'>,
  pathValues: Readonly<Record<string, string>>,
): RequestProblem | undefined {
  const lower = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const problems = parameterProblems(op, {
    path: (name) => pathValues[name],
    query: (name) => c.query[name],
    header: (name) => lower[name],
    cookie: () => undefined,
    querystring: c.querystring ?? validQuerystring(op),
  });
  return inRefusalOrder(problems)[0];
}

/** The path parameters' values in `sent` (a path of `op`'s template, percent-decoded), by name. */
export function pathValuesOf(op: OperationSpec, sent: string): Record<string, string> {
  const { pattern, params } = templatePattern(op.path);
  const m = pattern.exec(sent.split('?')[0] ?? '');
  return Object.fromEntries(params.map((name, i) => [name, decodeURIComponent(m?.[i + 1] ?? '')]));
}

/** The 3.2 querystring's cases: left out, a value its schema refuses, text its media type cannot read. */
function querystringCases(op: OperationSpec, random: () => number): string[] {
  const spec = op.querystring;
  if (!spec) return [];
  const broken = generateInvalid(spec.schema, random, 'q', 3).map((c) => writeQuerystring(spec, c.body));
  return ['', ...broken, ...(spec.kind === 'json' ? ['%7Bnot-json'] : []), '%E0%A4%A'];
}

/** Pure: the parameter cases of `op` sent to `sentPath` (none: the operation has nothing to probe). */
export function parameterCases(op: OperationSpec, random: () => number, sentPath: string): ParamCase[] {
  const base = { query: {} as Record<string, string>, header: {} as Record<string, string> };
  const probed = [...op.queryParams, ...op.headerParams] as Array<ParamSpec & { in: 'query' | 'header' }>;
  for (const p of probed.filter((q) => q.required))
    base[p.in][p.name] = asText(generateValid(p.schema, random, 'fuzz')) ?? '';
  const cases: Array<Omit<ParamCase, 'expect'>> = [];
  const withValue = (p: ParamSpec & { in: 'query' | 'header' }, value: string | undefined) => {
    const values = { ...base[p.in] };
    if (value === undefined) delete values[p.name];
    else values[p.name] = value;
    return p.in === 'query'
      ? { query: values, headers: base.header }
      : { query: base.query, headers: values };
  };
  for (const p of probed) {
    if (p.required) cases.push({ label: `${p.in} ${p.name} missing (required)`, ...withValue(p, undefined) });
    for (const { label, value } of valuesFor(p.schema as Record<string, unknown>, base[p.in][p.name])) {
      const text = asText(value);
      if (text !== undefined) cases.push({ label: `${p.in} ${p.name}: ${label}`, ...withValue(p, text) });
    }
  }
  for (const raw of querystringCases(op, random))
    cases.push({
      label: `querystring ${op.querystring?.name ?? ''} ${raw === '' ? 'missing' : JSON.stringify(raw)}`,
      query: base.query,
      headers: base.header,
      querystring: raw,
    });
  const id = integerId(op);
  if (id)
    for (const text of ['abc', '1.5'])
      cases.push({ label: `path ${id.name} "${text}"`, query: base.query, headers: base.header, id: text });
  const pathValues = pathValuesOf(op, sentPath);
  return cases.map((c) => {
    // A non-integer id is refused either way: as a malformed value, or (a number type's 1.5) as no such item.
    if (c.id !== undefined) return { ...c, expect: 'reject' };
    const problem = refusal(op, c, pathValues);
    return problem ? { ...c, expect: 'reject', status: problem.status } : { ...c, expect: 'accept' };
  });
}

/** The parameters rule of `op`, when it has cases. */
export function parametersRules(op: OperationSpec): RuleOf<`fuzz.${string}`>[] {
  // Counted only: which side each case falls on (read from the path sent) does not change how many there are.
  if (parameterCases(op, () => 0.5, op.path).length === 0) return [];
  return [
    {
      id: parametersRuleId(op),
      title: `${op.operationId}: query and header parameters and the item id (--fuzz) accepted when valid, refused when not`,
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
  const item =
    c.id !== undefined ? op.path.replace(`{${integerId(op)?.name ?? ''}}`, encodeURIComponent(c.id)) : path;
  // A valid querystring unless the case is about it (bodyRequest adds the valid one to a request with a body).
  const at = c.querystring === undefined ? item : c.querystring === '' ? item : `${item}?${c.querystring}`;
  // A valid body, so that only the parameter decides.
  // Written as the operation documents its body (JSON, a form, multipart): bodyRequest skips one it cannot build.
  const body =
    op.requestBody !== undefined
      ? withRunPrefix(
          generateValid(op.requestBody.schema, random, 'fuzz', { full: true }),
          op.requestBody.schema,
          runPrefix,
          op.requestBody.validate,
        )
      : undefined;
  const out =
    body === undefined
      ? {
          method: op.method.toUpperCase(),
          path: c.querystring === undefined ? withQuerystring(op, at) : at,
          auth: { use: 'key' as const },
        }
      : {
          ...bodyRequest(op, at, { json: body, label: runPrefix }),
          ...(c.querystring === undefined ? {} : { path: at }),
        };
  // Exactly as built: a missing required parameter is the case, not an omission to fill in.
  return { ...out, query: c.query, headers: { ...out.headers, ...c.headers }, exact: true };
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
      for (const c of parameterCases(op, random, found.path)) {
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
              : [...new Set([...(c.status === undefined ? [] : [c.status]), ...rejectStatuses(op)])];
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
    // A JSON body is saved as its value (a form or multipart body is built again by --replay from nothing).
    body:
      out.body === undefined || op.requestBody?.kind !== 'json'
        ? undefined
        : (JSON.parse(out.body) as unknown),
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

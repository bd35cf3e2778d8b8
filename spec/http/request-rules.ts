/**
 * The request rules of the document, decided once for the mock (validate stage), the proxy's judge and the
 * runner: each broken rule is a neutral problem `{ rule, status, message, pointer }` that each tool translates
 * (the mock into its error answer, the judge into a finding). The status is the one the document uses for the
 * refusal: 400, or where the operation documents neither 400, `4XX` nor `default`, the first of the HTTP
 * alternatives it does document (a path parameter the server cannot resolve: 404, then 422).
 * Which refusal wins when several apply is decided here too: the route (404/405), then credentials (401), then
 * the media type (415), then the rest (400), then `Accept` (406); the mock's stages run in that order.
 */
import {
  coerceParam,
  formatAjvErrors,
  type OperationSpec,
  type ParamSpec,
  type QuerystringSpec,
} from '../compile';
import { flattenedQueryValue } from './query-params';
import { readQuerystring } from './querystring';

export interface RequestProblem {
  /** `request.parameters`, `request.body`, `request.media-type`, `request.credentials`, … */
  rule: string;
  status: number;
  message: string;
  /** Where: `/path/id`, `/query/limit`, `/header/x-tenant`, `/cookie/session`, `/body/name`, `` for the whole. */
  pointer: string;
}

/**
 * The order refusals win in: routing, then credentials, then the media type, then every other rule (400), and
 * last the answer's media type (406): a request is judged before what it asks to be answered in, as Prism does.
 */
const PRECEDENCE = ['request.path', 'request.method', 'request.credentials', 'request.media-type'];
const LAST = ['request.accept'];

const rankOf = (rule: string): number => {
  const i = PRECEDENCE.indexOf(rule);
  if (i >= 0) return i;
  const last = LAST.indexOf(rule);
  return last < 0 ? PRECEDENCE.length : PRECEDENCE.length + 1 + last;
};

/** The problems in the order a server refuses them (a stable sort): the first is the answer. */
export function inRefusalOrder<P extends { rule: string }>(problems: readonly P[]): P[] {
  return [...problems].sort((a, b) => rankOf(a.rule) - rankOf(b.rule));
}

/** `status`, unless the operation documents none of it, `4XX` or `default` but one of `alternatives`. */
export function refusalStatus(
  responses: ReadonlyMap<string, unknown>,
  status: number,
  alternatives: readonly number[],
): number {
  if (responses.has(String(status)) || responses.has('4XX') || responses.has('default')) return status;
  return alternatives.find((s) => responses.has(String(s))) ?? status;
}

/** The statuses HTTP offers instead of 400 for a bad value, by where the value is. */
const ALTERNATIVES: Readonly<Record<ParamSpec['in'], readonly number[]>> = {
  path: [404, 422],
  query: [422],
  header: [422],
  cookie: [422],
};

/**
 * The first broken parameter rule among `specs` (values as sent, already percent-decoded), or undefined.
 * `rawQuery` (the query string as sent): an object or array query parameter whose name was not sent is read
 * from its members (spec/http/query-params.ts), as a client of its style sends them.
 */
export function parameterProblem(
  op: Pick<OperationSpec, 'responses'>,
  specs: readonly ParamSpec[],
  values: (name: string) => string | undefined,
  rawQuery?: string,
): RequestProblem | undefined {
  for (const p of specs) {
    const raw = values(p.in === 'header' ? p.name.toLowerCase() : p.name);
    const members =
      raw === undefined && rawQuery && p.in === 'query' ? flattenedQueryValue(p, rawQuery) : undefined;
    if (members !== undefined) {
      if (p.validate(members)) continue;
      const what = `${p.in} parameter ${p.name}`;
      const detail = formatAjvErrors(p.validate.errors, what);
      return paramRefusal(op, p, detail.startsWith(what) ? detail : `${what}: ${detail}`);
    }
    if (raw === undefined) {
      if (p.required) return paramRefusal(op, p, `${p.in} parameter ${p.name} is required`);
      continue;
    }
    if (!p.validate(coerceParam(p.schema, raw)))
      return paramRefusal(op, p, formatAjvErrors(p.validate.errors, `${p.in} parameter ${p.name}`));
  }
  return undefined;
}

/** A broken parameter's problem: its pointer and status are worked out only for a refusal, not per valid value. */
const paramRefusal = (
  op: Pick<OperationSpec, 'responses'>,
  p: ParamSpec,
  message: string,
): RequestProblem => ({
  rule: 'request.parameters',
  status: refusalStatus(op.responses, 400, ALTERNATIVES[p.in]),
  pointer: `/${p.in}/${p.name}`,
  message,
});

/**
 * The 3.2 `in: querystring` parameter's problem, if any: `raw` is the query string as sent, without `?` (absent
 * or empty: not given). Refused with the status a query parameter is.
 */
export function querystringProblem(
  op: { responses: ReadonlyMap<string, unknown>; querystring?: QuerystringSpec },
  raw: string | undefined,
): RequestProblem | undefined {
  const spec = op.querystring;
  if (!spec) return undefined;
  const pointer = `/querystring/${spec.name}`;
  const status = refusalStatus(op.responses, 400, ALTERNATIVES.query);
  const problem = (message: string): RequestProblem => ({
    rule: 'request.parameters',
    status,
    pointer,
    message,
  });
  if (raw === undefined || raw === '')
    return spec.required ? problem(`querystring parameter ${spec.name} is required`) : undefined;
  const read = readQuerystring(spec, raw);
  if (!read.ok) return problem(read.message);
  if (spec.validate(read.value)) return undefined;
  const what = `querystring parameter ${spec.name}`;
  const detail = formatAjvErrors(spec.validate.errors, what);
  return problem(detail.startsWith(what) ? detail : `${what}: ${detail}`);
}

/** Every parameter problem of a request: path, query (or querystring), header and cookie, in that order, one per location. */
export function parameterProblems(
  op: OperationSpec,
  values: {
    path: (name: string) => string | undefined;
    query: (name: string) => string | undefined;
    /** By lower-cased name. */
    header: (name: string) => string | undefined;
    cookie: (name: string) => string | undefined;
    /** The query string as sent, without `?`: read only for an OpenAPI 3.2 `in: querystring` parameter. */
    querystring?: string;
  },
): RequestProblem[] {
  return [
    parameterProblem(op, op.pathParamSpecs, values.path),
    parameterProblem(op, op.queryParams, values.query, values.querystring) ??
      querystringProblem(op, values.querystring),
    parameterProblem(op, op.headerParams, values.header),
    parameterProblem(op, op.cookieParams, values.cookie),
  ].filter((p): p is RequestProblem => p !== undefined);
}

/** `a=1; b=2` -> { a: '1', b: '2' } (the first of a repeated name; values as sent). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name && !(name in out)) out[name] = pair.slice(eq + 1).trim();
  }
  return out;
}

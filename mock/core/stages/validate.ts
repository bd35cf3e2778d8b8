/**
 * Stage: check the request against the operation, by the rules the proxy and the runner share (spec/http/):
 * path parameters must decode; the body's media type (415), the parameters (400, or the status the document
 * uses), the body against its schema (mock/core/body-check.ts) and `Accept` (406, spec/http/negotiate.ts) are
 * collected and the first by the shared precedence is the answer (spec/http/request-rules.ts `inRefusalOrder`).
 * `Prefer: code=NNN` and `example=NAME` must name what the operation documents (the mock's own, ranked as a 400).
 */
import type { OperationSpec } from '../../../spec/compile';
import {
  inRefusalOrder,
  parameterProblems,
  parseCookies,
  type RequestProblem,
} from '../../../spec/http/request-rules';
import { acceptProblem } from '../../../spec/http/negotiate';
import { checkBody, checkUnexpectedBody } from '../body-check';
import { apiError, asDocumented, invalidEncoding, isErrorReply, type ErrorReply } from '../errors';
import type { Deps, ReadCtx, RoutedCtx, Stage } from '../context';
import { chosenStatus, namedExamples, parsePrefer } from '../prefer';
import { parseQuery } from '../query';

/** Pure: decode every raw path parameter, or say which one is broken. */
export function decodeParams(raw: Record<string, string>): Record<string, string> | ErrorReply {
  // Values without `%` decode to themselves (`/things/10`): the same record, no copy.
  let encoded = false;
  for (const name in raw) if ((raw[name] as string).includes('%')) encoded = true;
  if (!encoded) return raw;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      return invalidEncoding(`path parameter ${name} is not valid percent-encoding`);
    }
  }
  return out;
}

/** Pure: the status asked for by `Prefer: code=NNN`, if it is one the operation documents. */
export function preferredStatus(
  prefer: string | undefined,
  operation: OperationSpec,
): number | undefined | ErrorReply {
  const m = prefer ? /(?:^|[,;\s])code=(\d{3})\b/.exec(prefer) : null;
  if (!m?.[1]) return undefined;
  if (!operation.responses.has(m[1])) {
    const documented = [...operation.responses.keys()].join(', ');
    return apiError(
      'invalid_prefer',
      `Prefer: code=${m[1]} is not a documented status of ${operation.operationId} (${documented})`,
    );
  }
  return Number(m[1]);
}

/** `Prefer: example=NAME` must name an example of the chosen status; `dynamic=true` is kept. */
function takeExamplePreferences(
  ctx: RoutedCtx,
  deps: Deps,
  operation: OperationSpec,
  preferHeader: string,
): ErrorReply | undefined {
  const prefs = parsePrefer(preferHeader);
  if (prefs.dynamic) ctx.preferDynamic = true;
  if (prefs.example === undefined) return undefined;
  const status = chosenStatus(ctx, operation);
  const examples = namedExamples(deps.spec.document, operation, status);
  if (!examples.has(prefs.example)) {
    const names = [...examples.keys()];
    const known = names.length ? `its examples: ${names.join(', ')}` : 'it documents no named example';
    return apiError(
      'invalid_prefer',
      `Prefer: example=${prefs.example.slice(0, 100)} is not an example of ${operation.operationId} ${status} (${known})`,
    );
  }
  ctx.preferExample = prefs.example;
  return undefined;
}

const header = (v: string | string[] | undefined): string | undefined =>
  Array.isArray(v) ? v.join(', ') : v;

/** A request rule's problem as the mock's error answer, with the status the rule decided. */
const refusal = (problem: RequestProblem): ErrorReply => ({
  ...apiError(problem.status === 406 ? 'not_acceptable' : 'invalid_request', problem.message),
  status: problem.status,
});

/** A refusal the mock may answer with, by the shared rule it breaks (its rank: spec/http/request-rules.ts). */
interface Candidate {
  rule: string;
  reply: ErrorReply;
}

/** `Prefer`'s own refusals (the mock's): a status or an example the operation does not document. */
function preferRefusal(ctx: RoutedCtx, deps: Deps, operation: OperationSpec): ErrorReply | undefined {
  const preferHeader = header(ctx.req.headers.prefer);
  if (!preferHeader) return undefined;
  const prefer = preferredStatus(preferHeader, operation);
  if (isErrorReply(prefer)) return prefer;
  ctx.preferStatus = prefer;
  return takeExamplePreferences(ctx, deps, operation, preferHeader);
}

/**
 * Every refusal of the request, in the order the shared precedence gives (spec/http/request-rules.ts): the
 * media type (415), the parameters (path, query or querystring, header, cookie), `Prefer`, the body (400), then
 * `Accept` (406). The proxy's judge orders the same problems by the same function.
 */
function refusals(
  ctx: RoutedCtx,
  deps: Deps,
  operation: OperationSpec,
  body: { value: unknown } | ErrorReply | undefined,
): Candidate[] {
  const out: Candidate[] = [];
  if (body && isErrorReply(body) && body.status === 415)
    out.push({ rule: 'request.media-type', reply: body });
  // An operation that declares no parameter has none to check: no readers built for it.
  if (ctx.bound.hasParameters) {
    const params = ctx.params;
    let cookies: Record<string, string> | undefined;
    const problems = parameterProblems(operation, {
      path: (n) => params[n],
      query: (n) => (ctx.query ??= parseQuery(ctx.req.query))[n]?.[0],
      header: (n) => header(ctx.req.headers[n]),
      cookie: (n) => (cookies ??= parseCookies(header(ctx.req.headers.cookie)))[n],
      querystring: ctx.req.query,
    });
    for (const p of problems) out.push({ rule: p.rule, reply: refusal(p) });
  }
  const prefer = preferRefusal(ctx, deps, operation);
  if (prefer) out.push({ rule: 'mock.prefer', reply: prefer });
  if (body && isErrorReply(body) && body.status !== 415)
    out.push({ rule: 'request.body', reply: asDocumented(operation.responses, body, [422]) });
  const accept = acceptProblem(operation, header(ctx.req.headers.accept));
  if (accept) out.push({ rule: accept.rule, reply: refusal(accept) });
  return out;
}

export const validate: Stage<ReadCtx> = function validate(ctx, deps) {
  const { operation } = ctx;
  // An operation without path parameters (most requests) decodes and checks none: nothing allocated.
  if (operation.pathParams.length) {
    const params = decodeParams(ctx.params);
    if (isErrorReply(params)) return { reply: params, ctx };
    ctx.params = params;
  }
  // The operation's body check, bound to it at load (mock/core/bound.ts).
  const check = ctx.bound.bodyCheck;
  const content = header(ctx.req.headers['content-type']);
  const body = check
    ? checkBody(check, ctx.body, content, deps.config.maxBodyBytes)
    : checkUnexpectedBody(ctx.body, content, deps.config.policy);
  const found = refusals(ctx, deps, operation, body || undefined);
  const first = found.length > 1 ? inRefusalOrder(found)[0] : found[0];
  if (first) return { reply: first.reply, ctx };
  if (body && !isErrorReply(body)) {
    ctx.input = body.value;
    if (body.files?.length) ctx.uploads = body.files;
  }
  return ctx;
};

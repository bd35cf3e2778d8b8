/**
 * Stage: check the request against the operation. Path parameters must decode and, like query, header and
 * cookie parameters, match their schemas (400, or the status the document uses: spec/http/request-rules.ts); `Prefer: code=NNN` must name a documented status; `Accept` must match a documented
 * media type (406); a body is checked against the operation's own schema (mock/core/body-check.ts).
 */
import type { OperationSpec } from '../../../spec/compile';
import {
  parameterProblem,
  parseCookies,
  querystringProblem,
  type RequestProblem,
} from '../../../spec/http/request-rules';
import { checkBody, checkUnexpectedBody } from '../body-check';
import {
  apiError,
  asDocumented,
  invalidEncoding,
  invalidRequest,
  isErrorReply,
  notAcceptable,
  type ErrorReply,
} from '../errors';
import type { Ctx, Deps, Stage } from '../context';
import { chosenStatus, namedExamples, parsePrefer } from '../prefer';
import { parseQuery } from '../query';

/** Pure: decode every raw path parameter, or say which one is broken. */
export function decodeParams(raw: Record<string, string>): Record<string, string> | ErrorReply {
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
  ctx: Ctx,
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

/** Pure: does `accept` (a list of media ranges) allow one of `offered`? */
export function acceptable(accept: string, offered: readonly string[]): boolean {
  const ranges = accept.split(',').map((part) => {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return { range, q: q ? Number(q.slice(2)) : 1 };
  });
  return offered.some((type) => {
    const [t, s] = type.toLowerCase().split(';')[0]?.trim().split('/') ?? [];
    return ranges.some(
      ({ range, q }) =>
        q > 0 && (range === '*/*' || range === `${t}/*` || range === `${t}/${s}` || range === ''),
    );
  });
}

/** The media types the operation answers with (its documented successes, else any response). */
function offeredTypes(operation: OperationSpec): string[] {
  const all = [...operation.responses.entries()];
  const success = all.filter(([s]) => s.startsWith('2')).flatMap(([, r]) => r.mediaTypes);
  return success.length ? success : [];
}

const header = (v: string | string[] | undefined): string | undefined =>
  Array.isArray(v) ? v.join(', ') : v;

/** A request rule's problem as the mock's error answer, with the status the rule decided. */
const refusal = (problem: RequestProblem): ErrorReply => ({
  ...invalidRequest(problem.message),
  status: problem.status,
});

export const validate: Stage = function validate(ctx, deps) {
  const operation = ctx.operation;
  if (!operation) throw new Error('validate needs route to run first');
  // An operation without path parameters (most requests) decodes and checks none: nothing allocated.
  if (operation.pathParams.length) {
    const params = decodeParams(ctx.params ?? {});
    if (isErrorReply(params)) return { reply: params, ctx };
    ctx.params = params;
  }
  // A media type the operation does not take is refused before any parameter (spec/http/request-body.ts).
  const check = deps.bodies.get(operation.operationId);
  const content = header(ctx.req.headers['content-type']);
  const body = check && ctx.body ? checkBody(check, ctx.body, content, deps.config.maxBodyBytes) : undefined;
  if (body && isErrorReply(body) && body.status === 415) return { reply: body, ctx };
  const stray = check ? undefined : checkUnexpectedBody(ctx.body, content, deps.config.policy);
  if (stray) return { reply: stray, ctx };
  // One reading of the parameter rules for the three tools (spec/http/request-rules.ts): path, query (or 3.2's
  // querystring), header, cookie.
  if (operation.pathParamSpecs.length) {
    const params = ctx.params ?? {};
    const bad = parameterProblem(operation, operation.pathParamSpecs, (n) => params[n]);
    if (bad) return { reply: refusal(bad), ctx };
  }
  if (operation.queryParams.length) {
    const query = (ctx.query ??= parseQuery(ctx.req.query));
    const bad = parameterProblem(operation, operation.queryParams, (n) => query[n]?.[0]);
    if (bad) return { reply: refusal(bad), ctx };
  }
  if (operation.querystring) {
    const bad = querystringProblem(operation, ctx.req.query);
    if (bad) return { reply: refusal(bad), ctx };
  }
  if (operation.headerParams.length) {
    const bad = parameterProblem(operation, operation.headerParams, (n) => header(ctx.req.headers[n]));
    if (bad) return { reply: refusal(bad), ctx };
  }
  if (operation.cookieParams.length) {
    const cookies = parseCookies(header(ctx.req.headers.cookie));
    const bad = parameterProblem(operation, operation.cookieParams, (n) => cookies[n]);
    if (bad) return { reply: refusal(bad), ctx };
  }
  const preferHeader = header(ctx.req.headers.prefer);
  const prefer = preferredStatus(preferHeader, operation);
  if (isErrorReply(prefer)) return { reply: prefer, ctx };
  ctx.preferStatus = prefer;
  if (preferHeader) {
    const refused = takeExamplePreferences(ctx, deps, operation, preferHeader);
    if (refused) return { reply: refused, ctx };
  }
  const accept = header(ctx.req.headers.accept);
  if (accept) {
    const offered = offeredTypes(operation);
    if (offered.length && !acceptable(accept, offered)) return { reply: notAcceptable(accept, offered), ctx };
  }
  if (!body) return { next: ctx };
  if (isErrorReply(body)) return { reply: asDocumented(operation.responses, body, [422]), ctx };
  ctx.input = body.value;
  return { next: ctx };
};

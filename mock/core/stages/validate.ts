/**
 * Stage: check the request against the operation. Path parameters must decode and, like query parameters,
 * match their schemas (400); `Prefer: code=NNN` must name a documented status; `Accept` must match a documented
 * media type (406); a body is checked against the operation's own schema (mock/core/body-check.ts).
 */
import { coerceParam, formatAjvErrors, type OperationSpec, type ParamSpec } from '../../../spec/compile';
import { checkBody } from '../body-check';
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
import { defaultStatus, namedExamples, parsePrefer } from '../prefer';
import { successStatus } from '../records';
import { parseQuery } from './identify';

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

/** Pure: each documented parameter present is valid against its schema; each required one is present. */
export function checkParams(
  specs: readonly ParamSpec[],
  values: (name: string) => string | undefined,
): ErrorReply | undefined {
  for (const p of specs) {
    const raw = values(p.name);
    if (raw === undefined) {
      if (p.required) return invalidRequest(`${p.in} parameter ${p.name} is required`);
      continue;
    }
    if (!p.validate(coerceParam(p.schema, raw)))
      return invalidRequest(formatAjvErrors(p.validate.errors, `${p.in} parameter ${p.name}`));
  }
  return undefined;
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

/** The status an answer takes: `Prefer: code=`, else the action's success, else the documented one. */
export function chosenStatus(ctx: Ctx, operation: OperationSpec): number {
  if (ctx.preferStatus !== undefined) return ctx.preferStatus;
  return ctx.binding ? successStatus(operation, ctx.binding.action) : defaultStatus(operation);
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

export const validate: Stage = function validate(ctx, deps) {
  const operation = ctx.operation;
  if (!operation) throw new Error('validate needs route to run first');
  // An operation without path parameters (most requests) decodes and checks none: nothing allocated.
  if (operation.pathParams.length) {
    const params = decodeParams(ctx.params ?? {});
    if (isErrorReply(params)) return { reply: params, ctx };
    ctx.params = params;
  }
  if (operation.pathParamSpecs.length) {
    const params = ctx.params ?? {};
    const badPath = checkParams(operation.pathParamSpecs, (n) => params[n]);
    if (badPath) return { reply: asDocumented(operation.responses, badPath, [404, 422]), ctx };
  }
  if (operation.queryParams.length) {
    const query = (ctx.query ??= parseQuery(ctx.req.query));
    const badQuery = checkParams(operation.queryParams, (n) => query[n]?.[0]);
    if (badQuery) return { reply: asDocumented(operation.responses, badQuery, [422]), ctx };
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
  const check = deps.bodies.get(operation.operationId);
  if (!check || !ctx.body) return { next: ctx };
  const out = checkBody(check, ctx.body, header(ctx.req.headers['content-type']), deps.config.maxBodyBytes);
  if (isErrorReply(out)) return { reply: asDocumented(operation.responses, out, [422]), ctx };
  ctx.input = out.value;
  return { next: ctx };
};

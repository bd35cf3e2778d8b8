/** Request-side rules (the client's fault): route, method, credentials, parameters, media type, body. Pure. */
import { formatAjvErrors, type CompiledSpec, type OperationSpec } from '../../spec/compile';
import { matchPath } from '../../spec/http/match';
import {
  bodyMediaProblem,
  bodyRefusalStatus,
  decodeJsonBody,
  parseMediaType,
} from '../../spec/http/request-body';
import { acceptProblem } from '../../spec/http/negotiate';
import { decodeForm } from '../../spec/http/form-decode';
import { patchHeldToMediaType } from '../../spec/json-patch';
import { inRefusalOrder, parameterProblems, parseCookies } from '../../spec/http/request-rules';

/** An exchange as the judge sees it: no socket, no stream, headers lower-cased. */
export interface ObservedRequest {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  headers: Record<string, string>;
  /** The body text, or undefined when there was none or it was over the judged limit. */
  body?: string;
  bodyTooLarge?: boolean;
}

/** One rule broken by one exchange. */
export interface Problem {
  side: 'request' | 'response';
  rule: string;
  /** The status the document uses for a request-side problem (enforce mode answers with it). */
  status?: number;
  message: string;
}

/** Where a request lands in the document, or why it lands nowhere. */
export interface Route {
  op?: OperationSpec;
  pathParams: Record<string, string>;
  /** True when the path matches some operation (so a miss is a method problem, 405). */
  pathKnown: boolean;
  /** A path parameter is not valid percent-encoding (judged as it was sent, a 400). */
  malformed?: boolean;
}

/** The operation a method and a URL (path and query as sent) address, by the one matcher (spec/http/match.ts). */
export function routeRequest(spec: CompiledSpec, method: string, url: string): Route {
  const q = url.indexOf('?');
  const pathname = q < 0 ? url : url.slice(0, q);
  const m = matchPath(spec, spec.basePath, method, pathname, q < 0 ? '' : url.slice(q + 1));
  if (!('operation' in m)) return { pathParams: {}, pathKnown: m.status === 405 };
  const pathParams: Record<string, string> = {};
  let malformed = false;
  m.operation.pathParams.forEach((name, i) => {
    const raw = m.rawParams[i] ?? '';
    try {
      pathParams[name] = decodeURIComponent(raw);
    } catch {
      malformed = true;
      pathParams[name] = raw;
    }
  });
  return { op: m.operation, pathParams, pathKnown: true, ...(malformed ? { malformed } : {}) };
}

/** Pure: whether the path's percent-encoding is malformed anywhere (a server answers 400; the proxy forwards it). */
export function malformedPath(url: string): boolean {
  const path = pathOf(url);
  // Only a `%` can start a sequence decodeURIComponent refuses.
  if (!path.includes('%')) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** Every request-side problem of one request, in the order a server refuses them (404/405, 401, 415, 400, 406). */
export function judgeRequest(spec: CompiledSpec, req: ObservedRequest, route: Route): Problem[] {
  const { op } = route;
  // Before routing: `/v1/%zz/x` names no path a server could match; it is the client's malformed request.
  if (!route.malformed && malformedPath(req.url))
    return [
      {
        side: 'request',
        rule: 'request.path',
        status: 400,
        message: `${pathOf(req.url).slice(0, 200)} is not valid percent-encoding`,
      },
    ];
  if (!op) {
    return route.pathKnown
      ? [
          {
            side: 'request',
            rule: 'request.method',
            status: 405,
            message: `${req.method} is not documented for this path`,
          },
        ]
      : [
          {
            side: 'request',
            rule: 'request.path',
            status: 404,
            message: `no documented path matches ${pathOf(req.url)}`,
          },
        ];
  }
  const out: Problem[] = [];
  if (route.malformed)
    out.push({
      side: 'request',
      rule: 'request.path',
      status: 400,
      message: `${pathOf(req.url)} is not valid percent-encoding`,
    });
  if (op.requiresAuth && !hasCredentials(spec, op, req.headers))
    out.push({
      side: 'request',
      rule: 'request.credentials',
      status: 401,
      message: `${op.operationId} needs credentials`,
    });
  out.push(...paramProblems(op, req, route.pathParams), ...bodyProblems(op, req));
  const accept = acceptProblem(op, req.headers.accept);
  if (accept) out.push(bad(accept.rule, accept.message, accept.status));
  return inRefusalOrder(out);
}

const pathOf = (url: string): string => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/** Any one security alternative whose schemes all have their credential present (values are never read). */
function hasCredentials(spec: CompiledSpec, op: OperationSpec, headers: Record<string, string>): boolean {
  return credentialHeaders(spec, op).some((alt) => alt.every((name) => headers[name] !== undefined));
}

const credentialNames = new WeakMap<OperationSpec, string[][]>();
/**
 * Per security alternative of `op`, the (lower-cased) headers its schemes' credentials come in: a header API
 * key's own, `Authorization` for the others; a query or cookie key names none (present or not, the server
 * judges). Worked out once per operation, not per request.
 */
function credentialHeaders(spec: CompiledSpec, op: OperationSpec): string[][] {
  let found = credentialNames.get(op);
  if (found) return found;
  const schemes = (spec.document.components?.securitySchemes ?? {}) as Record<
    string,
    { type?: string; in?: string; name?: string }
  >;
  found = op.security.map((alt) =>
    alt.flatMap((name) => {
      const s = schemes[name];
      if (s?.type === 'apiKey' && s.in === 'header' && s.name) return [s.name.toLowerCase()];
      return s?.type === 'apiKey' ? [] : ['authorization'];
    }),
  );
  credentialNames.set(op, found);
  return found;
}

/** The parameter rules every tool applies (spec/http/request-rules.ts), as the judge's problems. */
function paramProblems(
  op: OperationSpec,
  req: ObservedRequest,
  pathParams: Record<string, string>,
): Problem[] {
  // Most operations declare few parameters, many none: nothing is parsed for those.
  if (!declaresParameters(op)) return [];
  let query: URLSearchParams | undefined;
  let cookies: Record<string, string> | undefined;
  return parameterProblems(op, {
    path: (n) => pathParams[n],
    query: (n) => (query ??= new URLSearchParams(req.url.split('?')[1] ?? '')).get(n) ?? undefined,
    header: (n) => req.headers[n],
    cookie: (n) => (cookies ??= parseCookies(req.headers.cookie))[n],
    querystring: req.url.split('?')[1],
  }).map((p) => bad(p.rule, p.message, p.status));
}

const NO_MEDIA = parseMediaType('');

const declaresParameters = (op: OperationSpec): boolean =>
  op.pathParamSpecs.length > 0 ||
  op.queryParams.length > 0 ||
  op.headerParams.length > 0 ||
  op.cookieParams.length > 0 ||
  op.querystring !== undefined;

const bad = (rule: string, message: string, status = 400): Problem => ({
  side: 'request',
  rule,
  status,
  message,
});

/** The body rules every tool applies (spec/http/request-body.ts), then the body's schema, as the judge's problems. */
function bodyProblems(op: OperationSpec, req: ObservedRequest): Problem[] {
  const body = op.requestBody;
  const type = req.headers['content-type'];
  const empty = !req.bodyTooLarge && !req.body;
  // Where the operation documents no body, one sent with a Content-Type is the media-type refusal too.
  // An operation without a body never reads the media type (most GETs): not parsed for it.
  const media = body ? parseMediaType(type ?? '') : NO_MEDIA;
  const reading = bodyMediaProblem(body, op.responses, type, media, empty);
  if (typeof reading !== 'string') return [bad(reading.rule, reading.message, reading.status)];
  // Over the judged limit, only its media type is judged (the text was not kept).
  if (!body || (reading !== 'json' && reading !== 'form') || req.bodyTooLarge) return [];
  const status = bodyRefusalStatus(op.responses);
  const form = reading === 'form' ? decodeForm(req.body ?? '', body.schema, body.formEncoding) : undefined;
  if (form && !form.ok) return [bad('request.body', form.message, status)];
  const data = form?.ok ? form : decodeJsonBody(op.responses, req.body ?? '');
  if (!('value' in data)) return [bad(data.rule, data.message, data.status)];
  if (patchHeldToMediaType(type, body.schema, data.value) || body.validate(data.value)) return [];
  return [bad('request.body', formatAjvErrors(body.validate.errors), status)];
}

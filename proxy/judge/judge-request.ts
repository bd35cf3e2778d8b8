/** Request-side rules (the client's fault): route, method, credentials, parameters, media type, body. Pure. */
import {
  coerceParam,
  formatAjvErrors,
  isJsonMediaType,
  type CompiledSpec,
  type OperationSpec,
} from '../../spec/compile';
import { matchBasePath } from '../../spec/base-path';

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
}

/** The operation a method and path address under the document's base path. */
export function routeRequest(spec: CompiledSpec, method: string, pathname: string): Route {
  const rest = matchBasePath(pathname, spec.basePath);
  if (rest === undefined) return { pathParams: {}, pathKnown: false };
  const local = rest === '' ? '/' : rest;
  let pathKnown = false;
  for (const op of spec.operations) {
    const m = op.pathPattern.exec(local);
    if (!m) continue;
    pathKnown = true;
    if (op.method !== method.toLowerCase()) continue;
    const pathParams: Record<string, string> = {};
    op.pathParams.forEach((name, i) => (pathParams[name] = decodeSegment(m[i + 1] ?? '')));
    return { op, pathParams, pathKnown };
  }
  return { pathParams: {}, pathKnown };
}

/** A percent-encoded segment decoded; a malformed one (`%zz`, a lone `%E2`) kept as written. */
const decodeSegment = (raw: string): string => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/** Pure: whether the path's percent-encoding is malformed (what a server answers 400 to; the proxy forwards it). */
export function malformedPath(url: string): boolean {
  try {
    decodeURIComponent(pathOf(url));
    return false;
  } catch {
    return true;
  }
}

/** Every request-side problem of one request, in the order a server refuses them (400, 404/405, 401, 415, 400). */
export function judgeRequest(spec: CompiledSpec, req: ObservedRequest, route: Route): Problem[] {
  const { op } = route;
  if (malformedPath(req.url))
    return [bad('request.path', `the path ${pathOf(req.url).slice(0, 200)} has malformed percent-encoding`)];
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
  if (op.requiresAuth && !hasCredentials(spec, op, req.headers))
    out.push({
      side: 'request',
      rule: 'request.credentials',
      status: 401,
      message: `${op.operationId} needs credentials`,
    });
  out.push(...paramProblems(op, req, route.pathParams), ...bodyProblems(op, req));
  return out;
}

const pathOf = (url: string) => url.split('?')[0] ?? url;

/** Any one security alternative whose schemes all have their credential present (values are never read). */
function hasCredentials(spec: CompiledSpec, op: OperationSpec, headers: Record<string, string>): boolean {
  const schemes = (spec.document.components?.securitySchemes ?? {}) as Record<
    string,
    { type?: string; in?: string; name?: string }
  >;
  return op.security.some((alt) =>
    alt.every((name) => {
      const s = schemes[name];
      if (s?.type === 'apiKey' && s.in === 'header' && s.name)
        return headers[s.name.toLowerCase()] !== undefined;
      if (s?.type === 'apiKey') return true; // query and cookie keys: present or not, the server judges
      return headers.authorization !== undefined;
    }),
  );
}

function paramProblems(
  op: OperationSpec,
  req: ObservedRequest,
  pathParams: Record<string, string>,
): Problem[] {
  const query = new URLSearchParams(req.url.split('?')[1] ?? '');
  const out: Problem[] = [];
  const check = (p: OperationSpec['queryParams'][number], raw: string | null | undefined) => {
    if (raw === null || raw === undefined) {
      if (p.required) out.push(bad('request.parameters', `${p.in} parameter ${p.name} is required`));
      return;
    }
    if (!p.validate(coerceParam(p.schema, raw)))
      out.push(bad('request.parameters', formatAjvErrors(p.validate.errors, `${p.in} parameter ${p.name}`)));
  };
  for (const p of op.pathParamSpecs) check(p, pathParams[p.name]);
  for (const p of op.queryParams) check(p, query.get(p.name));
  for (const p of op.headerParams) check(p, req.headers[p.name.toLowerCase()]);
  return out;
}

const bad = (rule: string, message: string, status = 400): Problem => ({
  side: 'request',
  rule,
  status,
  message,
});

function bodyProblems(op: OperationSpec, req: ObservedRequest): Problem[] {
  const body = op.requestBody;
  const present = req.bodyTooLarge || (req.body !== undefined && req.body !== '');
  if (!body) return [];
  if (!present) return body.required ? [bad('request.body', 'the request body is required')] : [];
  const type = req.headers['content-type'] ?? '';
  const base = (type.split(';')[0] ?? '').trim().toLowerCase();
  if (!body.mediaTypes.some((m) => m.toLowerCase() === base))
    return [
      bad(
        'request.media-type',
        `Content-Type ${type || 'missing'} is not one of ${body.mediaTypes.join(', ')}`,
        415,
      ),
    ];
  if (req.bodyTooLarge || !isJsonMediaType(base) || body.kind !== 'json') return [];
  let json: unknown;
  try {
    json = JSON.parse(req.body ?? '');
  } catch {
    return [bad('request.body', 'the request body is not JSON')];
  }
  return body.validate(json) ? [] : [bad('request.body', formatAjvErrors(body.validate.errors))];
}

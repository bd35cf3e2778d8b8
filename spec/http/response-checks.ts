/**
 * Checks applied to every response of every step, whether or not the step asked (as Schemathesis does):
 * no 5xx, documented status, JSON content type, body schema, documented headers, Error bodies, sane
 * rate-limit values. Uses the validators the spec loader compiled; nothing is compiled here.
 */
import {
  formatAjvErrors,
  isJsonMediaType,
  validateHeaderValue,
  type HeaderSpec,
  type LoadedSpec,
} from '../load';
import type { Exchange, Finding, RecordedResponse } from '../report/types';
import { documentedResponse, type ResponseSpec } from '../compile';
import { errorBodyProblem, universalErrorResponse } from './error-body';
import { mediaTypeProblem } from './media-type';
import { streamFor, streamProblem } from './streams';
import { fromXml, isXmlMediaType } from '../xml';

/** Rules judged from the recorded exchanges rather than by a check of their own. */
export const RESPONSE_RULES = [
  'response.no-5xx',
  'response.documented-status',
  'response.json',
  'response.body-schema',
  'response.headers',
  'response.empty-body',
  'errors.error-body',
  'ratelimit.values',
  'assume.retry-after-seconds',
] as const;

/** The id of a rule judged here. */
export type ResponseRuleId = (typeof RESPONSE_RULES)[number];

const DAY_MS = 86_400_000;
const SKEW_MS = 2000;

/** Findings for every exchange that got a response. */
export function checkResponses(spec: LoadedSpec, exchanges: readonly Exchange[]): Finding[] {
  return exchanges.flatMap(responseChecker(spec));
}

/** The same checks one exchange at a time, as a run receives them (the document is read once, here). */
export function responseChecker(spec: LoadedSpec): (exchange: Exchange) => Finding[] {
  const rateHeaders = rateLimitHeaders(spec);
  return (ex) => (ex.response ? checkOne(spec, ex, ex.response, rateHeaders) : []);
}

function checkOne(
  spec: LoadedSpec,
  ex: Exchange,
  res: RecordedResponse,
  rateHeaders: HeaderSpec[],
): Finding[] {
  const out: Finding[] = [];
  const judge = (ruleId: ResponseRuleId, problem: string | undefined | null) =>
    problem !== null &&
    out.push(problem ? { ruleId, outcome: 'fail', problem, exchange: ex } : { ruleId, outcome: 'pass' });
  judge('response.no-5xx', res.status >= 500 ? `server error ${res.status}` : undefined);
  const op = ex.operationId ? spec.byId.get(ex.operationId) : undefined;
  // A status range (`4XX`) or `default` documents every status it covers.
  const documented = op && documentedResponse(op, res.status);
  // A response documented without content (a 204) has no body to be JSON.
  const bodiless = res.body === '' && (res.status === 204 || documented?.mediaTypes.length === 0);
  // A documented stream (3.2 `itemSchema`: SSE, JSON Lines, JSON sequences) in its type: a stream of no item
  // yet (an event source quiet for the runner's whole window) is a stream all the same.
  const stream = streamFor(documented?.streams, res.headers['content-type']);
  // A documented PDF, XML or CSV answer is judged by its media type, not as JSON (spec/http/media-type.ts).
  const media = stream ? undefined : mediaTypeProblem(documented, res);
  // An answer outside the document (no operation: another version's path, an unknown path) is judged as JSON only
  // where the document states one error shape for every answer (the pet store's §1, §7); else it says nothing.
  // So is an error documented without content (`404: Not Found` alone): the body it may carry is not described.
  const unsaid =
    (!op || (res.status >= 400 && documented?.mediaTypes.length === 0)) && !universalErrorResponse(spec);
  if (!bodiless && !unsaid) judge('response.json', media === null ? jsonProblem(res) : media);
  // A body exactly where the status documents content; a HEAD's answer and a 304 never carry one.
  if (documented && ex.request.method.toUpperCase() !== 'HEAD' && res.status !== 304)
    judge('response.empty-body', stream ? undefined : emptyBodyProblem(documented, res));
  if (res.status >= 400) judge('errors.error-body', errorBodyProblem(spec, res, ex.operationId));
  if (op && !ex.outsideContract)
    judge(
      'response.documented-status',
      documented || refusedBySecurity(op, res.status) || refusedUnsaid(op, res.status)
        ? undefined
        : `${op.operationId} documents ${[...op.responses.keys()].join(', ')}, not ${res.status}`,
    );
  // A stream: each item against the item schema.
  const streamed = stream && streamProblem(stream, res.body);
  if (stream) judge('response.body-schema', streamed && `${op?.operationId} ${res.status}: ${streamed}`);
  else if (documented?.validateBody && res.json !== undefined && !documented.validateBody(res.json))
    judge(
      'response.body-schema',
      `${op?.operationId} ${res.status}: ${formatAjvErrors(documented.validateBody.errors)}`,
    );
  else if (documented?.validateBody && res.json !== undefined) judge('response.body-schema', undefined);
  else if (documented?.xml && res.body !== '' && isXmlMediaType(res.headers['content-type'] ?? ''))
    judge('response.body-schema', xmlProblem(documented.xml, res.body, `${op?.operationId} ${res.status}`));
  // §8: where every operation documents the rate-limit headers, every answer carries them, documented or not.
  judge('response.headers', headerProblems(documented?.headers ?? rateHeaders, res).join('; ') || undefined);
  // §8.2: a 429's Retry-After (required where documented: response.headers) in whole seconds, the unit the
  // interface leaves "not shown" and this project assumes (the quota probe's rule, judged on every 429 seen).
  const retry = res.status === 429 ? res.headers['retry-after'] : undefined;
  if (retry !== undefined) judge('assume.retry-after-seconds', retryAfterSecondsProblem(retry));
  const values = rateLimitValuesProblem(res, ex.receivedAt);
  if (values !== null) judge('ratelimit.values', values);
  return out;
}

/** An XML answer read as its schema says (spec/xml.ts), then judged as that value; undefined when it conforms. */
function xmlProblem(xml: NonNullable<ResponseSpec['xml']>, body: string, where: string): string | undefined {
  let value: unknown;
  try {
    value = fromXml(body, xml.schema);
  } catch (e) {
    return `${where}: body is not XML (${(e as Error).message})`;
  }
  return xml.validate(value) ? undefined : `${where} (XML): ${formatAjvErrors(xml.validate.errors)}`;
}

/** A Retry-After that is not a whole number of seconds, or undefined. */
export function retryAfterSecondsProblem(retry: string): string | undefined {
  return /^\d+$/.test(retry.trim()) ? undefined : `Retry-After "${retry}" is not whole seconds`;
}

/**
 * Empty vs documented body: a body on a success or redirect documented without content (a 204, a 201 with no
 * content), or none on a status documented with content (a 204 excepted, which HTTP keeps empty); undefined when
 * they agree. An error status (4xx, 5xx) documented without content may carry an error body: many documents list
 * `400: {description: Bad request}` alone, and every error this house's mock sends is in the error shape (§7).
 */
export function emptyBodyProblem(
  documented: Pick<ResponseSpec, 'mediaTypes'>,
  res: Pick<RecordedResponse, 'status' | 'body'>,
): string | undefined {
  if (documented.mediaTypes.length === 0)
    return res.body === '' || res.status >= 400
      ? undefined
      : `${res.status} documents no body, but one was sent`;
  if (res.body !== '' || res.status === 204) return undefined;
  return `${res.status} documents a body (${documented.mediaTypes.join(', ')}), but none was sent`;
}

/**
 * `response.accepted-invalid`: a 2xx to a request the shared request rules refuse (spec/http/request-rules.ts),
 * an undocumented path included; `refusedBy` names the rules the request broke.
 */
export function acceptedInvalidProblem(status: number, refusedBy: readonly string[]): string | undefined {
  if (status < 200 || status >= 300 || refusedBy.length === 0) return undefined;
  return `answered ${status} to a request the document forbids (${refusedBy.join(', ')})`;
}

/** A secured operation's 401: its `security` documents the refusal even where `responses` lists no 401. */
const refusedBySecurity = (op: { requiresAuth: boolean }, status: number): boolean =>
  status === 401 && op.requiresAuth;

/**
 * A `400` or `422` where the operation documents no refusal of bad input at all (GitHub documents 201, 304,
 * 403 and 404 for creating a gist comment): every server refuses bad input, and HTTP names these two for it.
 */
const refusedUnsaid = (op: { responses: ReadonlyMap<string, unknown> }, status: number): boolean =>
  (status === 400 || status === 422) && !['400', '422', '4XX', 'default'].some((s) => op.responses.has(s));

function jsonProblem(res: RecordedResponse): string | undefined {
  const type = res.headers['content-type'];
  if (!type || !isJsonMediaType(type))
    return `Content-Type is ${type ?? 'missing'}, expected application/json`;
  return res.json === undefined ? 'body is not JSON' : undefined;
}

/** Header names lower-cased (as Node gives them), once per name: the documents' names are a fixed set. */
const lowerNames = new Map<string, string>();
function lowerName(name: string): string {
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowerNames.size < 10_000) lowerNames.set(name, lower);
  }
  return lower;
}

function headerProblems(headers: readonly HeaderSpec[], res: RecordedResponse): string[] {
  const problems: string[] = [];
  for (const header of headers) {
    const raw = res.headers[lowerName(header.name)];
    if (raw === undefined) {
      if (header.required) problems.push(`${header.name} is missing`);
      continue;
    }
    const { valid, problem } = validateHeaderValue(header, raw);
    if (!valid) problems.push(`${header.name} "${raw}": ${problem ?? 'invalid'}`);
  }
  return problems;
}

/**
 * The rate-limit header specs asked of an answer the document does not describe: only where every operation
 * documents them on some answer (a document-wide promise, as the pet store's §8); else none.
 */
function rateLimitHeaders(spec: LoadedSpec): HeaderSpec[] {
  const limits = (r: ResponseSpec) =>
    r.headers.filter((h) => h.name.toLowerCase().startsWith('x-ratelimit-'));
  const everywhere = spec.operations.every((op) =>
    [...op.responses.values()].some((r) => limits(r).length > 0),
  );
  if (!everywhere) return [];
  for (const op of spec.operations)
    for (const res of op.responses.values()) {
      const found = limits(res);
      if (found.length > 0) return found;
    }
  return [];
}

/** §8 values: null when the three headers are not all integers (response.headers reports that). */
export function rateLimitValuesProblem(res: RecordedResponse, receivedAt: number): string | undefined | null {
  const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((n) => {
    const raw = res.headers[`x-ratelimit-${n}`]?.trim();
    return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
  });
  if (limit === undefined || remaining === undefined || reset === undefined) return null;
  if (remaining > limit) return `X-RateLimit-Remaining ${remaining} is above X-RateLimit-Limit ${limit}`;
  const resetMs = reset * 1000;
  if (resetMs < receivedAt - SKEW_MS) return `X-RateLimit-Reset ${reset} is in the past`;
  if (resetMs > receivedAt + DAY_MS + SKEW_MS)
    return `X-RateLimit-Reset ${reset} is more than a day ahead (not Unix seconds?)`;
  return undefined;
}

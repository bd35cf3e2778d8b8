/**
 * The request body's media type and JSON decoding, decided once for the mock (mock/core/body-check.ts) and the
 * proxy's judge (proxy/judge/judge-request.ts), as neutral problems (spec/http/request-rules.ts):
 * - 415 `request.media-type`: a Content-Type the operation does not document (a JSON type where JSON is
 *   documented, the form type where it is documented, a documented type or range taken as it is), or a JSON or
 *   form body in a charset other than UTF-8;
 * - 400 `request.body`: a required body that is missing, or one not parseable as its documented JSON type
 *   (or the status the operation documents instead: `bodyRefusalStatus`);
 * - 415 `request.media-type` too for a body sent where the operation documents none: bytes with a Content-Type
 *   (`unexpectedBody: refuse`, the default; `ignore` reads none). An empty body, `Content-Length: 0` or a body
 *   without a Content-Type is fine on every method (docs/petstore-decisions.md).
 */
import { isJsonMediaType, type OperationSpec } from '../compile';
import { essenceOf } from './negotiate';
import { refusalStatus, type RequestProblem } from './request-rules';

/** What the rules need of a documented request body. */
export type BodyRule = Pick<NonNullable<OperationSpec['requestBody']>, 'kind' | 'mediaTypes' | 'required'>;

/** A Content-Type header, parsed: its base type lower-cased, whether its charset is UTF-8, whether it is JSON. */
export interface Media {
  type: string;
  utf8: boolean;
  /** `application/json` or `application/*+json`. */
  json: boolean;
}

/** How a body the rules accept is read: decoded as JSON or a form, taken as it is, or there is none. */
export type BodyReading = 'json' | 'form' | 'multipart' | 'opaque' | 'none';

/** A body sent to an operation that documents none: refused with 415 (the default) or ignored. */
export type UnexpectedBody = 'refuse' | 'ignore';

/** The configurable choices of the body rules (the mock's settings file sets them; the judge and runner take the defaults). */
export interface BodyOptions {
  unexpectedBody?: UnexpectedBody;
}

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/** Pure: the media type of a Content-Type header. */
export function parseMediaType(contentType: string): Media {
  const [type = '', ...params] = contentType
    .toLowerCase()
    .split(';')
    .map((s) => s.trim());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  const utf8 = charset === undefined || charset === 'utf-8' || charset === 'utf8';
  return { type, utf8, json: isJsonMediaType(type) };
}

/** Does the documented media range `range` (its essence) cover the essence `type`? */
function covers(range: string, type: string): boolean {
  if (range === '*/*' || range === type) return true;
  return range.endsWith('/*') && type.startsWith(range.slice(0, -1));
}

/** Does the body's documented list name `type` (not JSON, not a form), exactly or within a range? */
function documentsOpaque(documented: readonly string[], type: string): boolean {
  if (!type) return false;
  return documented.some((d) => {
    const base = essenceOf(d);
    return !isJsonMediaType(base) && base !== FORM && covers(base, type);
  });
}

/**
 * Does the body take JSON? Where a JSON type is documented (any `+json` counts), where `content` lists no media
 * type at all (`content: {}`: nothing narrows it, and JSON is what clients send), or where a documented range
 * (`*`/`*`, `application/*`) covers the JSON type sent.
 */
function takesJson(rule: BodyRule, media: Media): boolean {
  if (!media.json) return false;
  if (rule.kind === 'json' || rule.mediaTypes.length === 0) return true;
  return rule.mediaTypes.some((d) => covers(essenceOf(d), media.type));
}

/**
 * The status of a body the rules refuse (missing, not JSON, against its schema): 400, which a documented `4XX` or
 * `default` covers (§4, §7: a bad body is a 400), else 422 where the operation documents that and not 400.
 */
export function bodyRefusalStatus(responses: ReadonlyMap<string, unknown>): number {
  return refusalStatus(responses, 400, [422]);
}

const missing = (responses: ReadonlyMap<string, unknown>): RequestProblem => ({
  rule: 'request.body',
  status: bodyRefusalStatus(responses),
  message: 'request body is required',
  pointer: '/body',
});

const unsupported = (message: string): RequestProblem => ({
  rule: 'request.media-type',
  status: 415,
  message,
  pointer: '/header/content-type',
});

/** Pure: the problem of a body sent where the operation documents none, or undefined (there is no body to refuse). */
export function unexpectedBodyProblem(
  contentType: string | undefined,
  empty: boolean,
  options: BodyOptions = {},
): RequestProblem | undefined {
  if (empty || !contentType?.trim() || options.unexpectedBody === 'ignore') return undefined;
  return unsupported(`this operation documents no request body, got a ${contentType.slice(0, 100)} body`);
}

/**
 * Pure: how the body of a request is to be read, or the problem with its media type or its absence.
 * `contentType` as sent (undefined when absent), `media` its parse (callers may cache it), `empty` whether no
 * body bytes came. An operation without a documented body reads none, and refuses one (`unexpectedBodyProblem`).
 */
export function bodyMediaProblem(
  rule: BodyRule | undefined,
  responses: ReadonlyMap<string, unknown>,
  contentType: string | undefined,
  media: Media,
  empty: boolean,
  options: BodyOptions = {},
): BodyReading | RequestProblem {
  if (!rule) return unexpectedBodyProblem(contentType, empty, options) ?? 'none';
  if (empty && !contentType) return rule.required ? missing(responses) : 'none';
  const json = takesJson(rule, media);
  const form = media.type === FORM && rule.mediaTypes.some((t) => essenceOf(t) === FORM);
  // A multipart form where one is documented (a file upload with its fields): decoded (spec/http/multipart.ts).
  if (media.type === MULTIPART && rule.mediaTypes.some((t) => covers(essenceOf(t), MULTIPART)))
    return empty ? (rule.required ? missing(responses) : 'none') : 'multipart';
  // A documented media type no tool decodes (an archive, plain text): taken as it is.
  if (!json && !form && !media.json && documentsOpaque(rule.mediaTypes, media.type)) return 'opaque';
  if (!json && !form) {
    // What the client may send instead: never the type it sent (a message must not contradict itself).
    const readable = rule.mediaTypes.filter((t) => isJsonMediaType(t) || essenceOf(t) === FORM);
    const hint = readable.length ? readable : rule.mediaTypes.length ? rule.mediaTypes : ['application/json'];
    return unsupported(`Content-Type must be ${hint.join(' or ')}, got ${contentType || 'none'}`);
  }
  if (!media.utf8) return unsupported(`Content-Type must be a UTF-8 charset, got ${contentType ?? ''}`);
  if (empty) return rule.required ? missing(responses) : 'none';
  return json ? 'json' : 'form';
}

/** Pure: the value of a JSON body's text, or the problem that it is not JSON. */
export function decodeJsonBody(
  responses: ReadonlyMap<string, unknown>,
  text: string,
): { value: unknown } | RequestProblem {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return {
      rule: 'request.body',
      status: bodyRefusalStatus(responses),
      message: `request body is not valid JSON: ${(err as Error).message}`,
      pointer: '/body',
    };
  }
}

/**
 * Pure: an answer judged by its documented media type when that is not JSON (issue 30). A response documented
 * only as `application/pdf`, XML, RSS or CSV is not "body is not JSON": it must carry one of the documented types
 * (a range such as `image/*` covers its types) and a body. JSON stays judged as JSON.
 */
import { isJsonMediaType, type ResponseSpec } from '../compile';
import type { RecordedResponse } from '../report/types';

const base = (type: string | undefined): string => (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** Does the documented media range `range` (`application/pdf`, `image/png`, a range such as `text/*`) cover `type`? */
export function mediaMatches(range: string, type: string): boolean {
  const r = base(range);
  const t = base(type);
  if (r === '*/*' || r === t) return true;
  return r.endsWith('/*') && t.startsWith(r.slice(0, -1));
}

/**
 * null: judge the answer as JSON (JSON, or nothing, is documented; or a JSON answer where JSON is one of the
 * documented types). Else the problem with a non-JSON answer (its Content-Type, an empty body), or undefined.
 */
export function mediaTypeProblem(
  documented: Pick<ResponseSpec, 'mediaTypes'> | undefined,
  res: Pick<RecordedResponse, 'headers' | 'body'>,
): string | undefined | null {
  const types = documented?.mediaTypes ?? [];
  const others = types.filter((t) => !isJsonMediaType(t));
  if (others.length === 0) return null;
  const got = base(res.headers['content-type']);
  if (got && isJsonMediaType(got) && types.some((t) => isJsonMediaType(t))) return null;
  if (!got) return `Content-Type is missing, expected ${types.join(' or ')}`;
  if (!types.some((t) => mediaMatches(t, got)))
    return `Content-Type is ${got}, expected ${types.join(' or ')}`;
  return res.body === '' ? `the ${got} answer has no body` : undefined;
}

/**
 * Documented response headers the mock sends (issue 30): those a response requires, and every header of a
 * `3xx` answer (its `Location`), each from its schema's example, else generated from the schema, and only when
 * the value passes the header's own validator. The mock's own headers (rate limits, media type, length) are
 * never taken from here.
 */
import { validateHeaderValue, type HeaderSpec, type ResponseSpec } from '../../spec/compile';
import { sampleOf } from '../../spec/sample';

const OWN =
  /^(x-ratelimit-|ratelimit|retry-after$|content-type$|content-length$|transfer-encoding$|connection$)/i;

const made = new WeakMap<HeaderSpec, string | null>();

/** A value for `header` its validator accepts, worked out once; null when none is found. */
function valueOf(header: HeaderSpec): string | null {
  const known = made.get(header);
  if (known !== undefined) return known;
  const s = header.schema as { example?: unknown; examples?: unknown; format?: string; type?: unknown };
  const isLocation = /^(location|content-location)$/i.test(header.name);
  const candidates: unknown[] = [s.example, Array.isArray(s.examples) ? s.examples[0] : undefined];
  // A Location without a pattern of its own: a URI reference into this API.
  if (isLocation && s.format === undefined) candidates.push('http://example.com/');
  candidates.push(sampleOf(header.schema));
  let value: string | null = null;
  for (const c of candidates) {
    if (c === undefined || c === null) continue;
    const text = Array.isArray(c) ? c.join(',') : typeof c === 'object' ? JSON.stringify(c) : String(c);
    if (validateHeaderValue(header, text).valid) {
      value = text;
      break;
    }
  }
  made.set(header, value);
  return value;
}

/** The headers to send with an answer documented by `response` with `status`. */
export function documentedHeaders(
  response: ResponseSpec | undefined,
  status: number,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!response) return out;
  const redirect = status >= 300 && status < 400;
  for (const header of response.headers) {
    if (OWN.test(header.name)) continue;
    if (!redirect && !header.required) continue;
    const value = valueOf(header);
    if (value !== null) out[header.name] = value;
  }
  return out;
}

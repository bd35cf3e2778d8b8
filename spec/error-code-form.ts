/**
 * The mock's machine code (`not_found`) written as the document writes its codes: the value of its `enum` that
 * says the same thing (`ResourceNotFound`, `INVALID_AUTHORIZATION`), else in the form its examples show
 * (`NOT_FOUND` beside an example `INVALID_INPUT`, `https://errors.example.com/not-found` beside a link to
 * another error). Clients branch on these codes (Hetzner's CLI on `not_found`), so a code in another form is
 * as good as none. Pure; read by spec/error-shape.ts.
 */

/** What a document says about one code field: the values it allows, and a value it shows. */
export interface CodeForm {
  allowed?: readonly unknown[];
  example?: unknown;
  /** Undefined rather than a value that does not say the code (a `status` whose values are `success`, `fail`). */
  strict?: boolean;
}

/** The words a document may use for each of the mock's codes, beyond the code's own words. */
const WORDS: Readonly<Record<string, readonly string[]>> = {
  invalid_request: ['bad', 'validation', 'input', 'parameter', 'param', 'argument', 'malformed', 'field'],
  malformed_json: ['json', 'parse', 'invalid', 'body', 'syntax'],
  invalid_encoding: ['invalid', 'encoding', 'bad', 'request'],
  invalid_prefer: ['invalid', 'bad', 'request', 'header'],
  bad_request: ['invalid', 'bad', 'request'],
  unauthorized: ['unauthenticated', 'authentication', 'auth', 'authorization', 'token', 'credentials', 'key'],
  forbidden: ['permission', 'denied', 'access', 'insufficient'],
  not_found: ['notfound', 'missing', 'unknown', 'nonexistent', 'exist', 'such', 'no'],
  method_not_allowed: ['method', 'unsupported', 'operation'],
  not_acceptable: ['accept', 'format'],
  duplicate_id: ['conflict', 'exists', 'already', 'uniqueness', 'unique'],
  record_limit: ['limit', 'exceeded', 'quota', 'conflict'],
  payload_too_large: ['size', 'entity', 'body', 'big'],
  unsupported_media_type: ['content', 'format'],
  rate_limited: ['rate', 'limit', 'exceeded', 'throttled', 'throttling', 'many', 'requests', 'quota'],
  key_banned: ['rate', 'limit', 'exceeded', 'throttled', 'many', 'requests', 'banned', 'blocked'],
  internal_error: ['server', 'service', 'unexpected'],
  service_unavailable: ['unavailable', 'maintenance', 'temporarily'],
};

/** `InvalidImageUrl`, `UK.OBIE.Field.Missing`, `rate-limit-exceeded` → their lower-case words. */
const wordsOf = (text: string): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Words of a code of the status's class, for an enum that names classes (`invalid_request_error`, `api_error`). */
const CLIENT_WORDS = ['invalid', 'request', 'client', 'bad'];
const SERVER_WORDS = ['api', 'server', 'internal', 'service', 'unexpected'];

/**
 * The enum value that says most of what `code` says (ties: the first); else the one that says the status's class
 * (a payments API's `type`: a 404 is an `invalid_request_error`, a 500 an `api_error`); undefined when none does.
 */
function bestOf(allowed: readonly unknown[], code: string, status: number): unknown {
  const own = code.split('_');
  const wanted = new Set([...own, ...(WORDS[code] ?? []), own.join(''), String(status)]);
  const exact = (value: string) => wordsOf(value).join('_') === code || value === String(status);
  return (
    allowed.find((v) => (typeof v === 'string' || typeof v === 'number') && exact(String(v))) ??
    mostOf(allowed, wanted, own.join('')) ??
    mostOf(allowed, new Set(status >= 500 ? SERVER_WORDS : CLIENT_WORDS), undefined)
  );
}

/** The value with the most words in `wanted` (ten more for one whose words joined are `whole`); ties: the first. */
function mostOf(
  allowed: readonly unknown[],
  wanted: ReadonlySet<string>,
  whole: string | undefined,
): unknown {
  let best: unknown;
  let score = 0;
  for (const value of allowed) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const words = wordsOf(String(value));
    const s = words.filter((w) => wanted.has(w)).length + (words.join('') === whole ? 10 : 0);
    if (s > score) [best, score] = [value, s];
  }
  return best;
}

/** The code's words joined in the style of `sample` (UPPER_SNAKE, kebab-case, PascalCase, camelCase, snake_case). */
function styled(code: string, sample: string): string {
  const words = code.split('_');
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  if (/^[A-Z0-9]+(_[A-Z0-9]+)*$/.test(sample) && /[A-Z]/.test(sample)) return code.toUpperCase();
  if (/^[a-z0-9]+(-[a-z0-9]+)+$/.test(sample)) return words.join('-');
  if (/^[A-Z][a-z0-9]+([A-Z][a-z0-9]*)*$/.test(sample)) return words.map(cap).join('');
  if (/^[a-z][a-z0-9]*([A-Z][a-z0-9]*)+$/.test(sample))
    return (words[0] ?? '') + words.slice(1).map(cap).join('');
  return code;
}

/** `code` in the form of the example `sample`: its prefix (a URL, a namespace) and suffix kept, the name restyled. */
function likeExample(code: string, status: number, sample: string): string {
  if (/^\d+$/.test(sample)) return String(status);
  const suffix = /\.(html?|json|md|txt)$/i.exec(sample)?.[0] ?? '';
  const m = /^(.*[#/:.])?([A-Za-z][A-Za-z0-9_-]*)$/.exec(sample.slice(0, sample.length - suffix.length));
  return m ? `${m[1] ?? ''}${styled(code, m[2] ?? '')}${suffix}` : code;
}

/** Pure: the mock's `code` for `status` as the field `form` describes codes. */
export function codeInForm(code: string, status: number, form: CodeForm): unknown {
  if (form.allowed?.length)
    return bestOf(form.allowed, code, status) ?? (form.strict ? undefined : form.allowed[0]);
  if (typeof form.example === 'string' && form.example.length <= 200)
    return likeExample(code, status, form.example);
  return code;
}

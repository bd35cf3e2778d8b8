/**
 * Pure: a curl command that works against this mock for a safe GET of *this* document, with the key placed as
 * that operation's security requires (bearer, oauth2 and openIdConnect: `Authorization: Bearer`; basic: `-u
 * KEY:`; apiKey: the header, the query parameter or the cookie the scheme names). Used by the start banner and
 * the pages.
 */
import { coerceParam, type CompiledSpec, type OperationSpec, type ParamSpec } from '../../spec/compile';
import { sampleOf } from '../../spec/sample';
import { apiKeyPrefix } from '../../spec/api-key-prefix';

/** The GET to try: no path parameter and no required query or header parameter, else the fewest to fill in. */
function chooseGet(spec: CompiledSpec): OperationSpec | undefined {
  const gets = spec.operations.filter((o) => o.method === 'get');
  const cost = (o: OperationSpec) =>
    o.pathParams.length * 10 + [...o.queryParams, ...o.headerParams].filter((p) => p.required).length;
  return [...gets].sort((a, b) => cost(a) - cost(b))[0];
}

/** A value the parameter's schema accepts: its default or example, else a sample; `1` as a last resort. */
function valueOf(p: ParamSpec): string {
  const s = p.schema as { default?: unknown; examples?: unknown[]; example?: unknown };
  for (const c of [s.default, s.examples?.[0], s.example, sampleOf(p.schema)]) {
    if (c === undefined || c === null || typeof c === 'object') continue;
    const text = String(c);
    if (p.validate(coerceParam(p.schema, text))) return text;
  }
  return '1';
}

/** Quote for a POSIX shell: bare when safe, else double quotes when nothing inside expands, else single. */
const quote = (s: string): string => {
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  if (!/["$`\\!]/.test(s)) return `"${s}"`;
  return `'${s.replace(/'/g, `'\\''`)}'`;
};

/** `curl …` for a safe GET of the document at `baseUrl` (which ends in the base path), or undefined. */
export function tryCurl(spec: CompiledSpec, baseUrl: string, key: string): string | undefined {
  const op = chooseGet(spec);
  if (!op) return undefined;
  let path = op.path;
  for (const p of op.pathParamSpecs) path = path.replace(`{${p.name}}`, encodeURIComponent(valueOf(p)));
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
  for (const p of op.queryParams) if (p.required) url.searchParams.set(p.name, valueOf(p));
  const args: string[] = [];
  // Required header parameters (the mock refuses a request without one with 400); OpenAPI ignores these three.
  for (const p of op.headerParams)
    if (p.required && !['accept', 'content-type', 'authorization'].includes(p.name.toLowerCase()))
      args.push('-H', quote(`${p.name}: ${valueOf(p)}`));
  for (const name of op.security[0] ?? []) {
    const scheme = spec.securitySchemes[name];
    if (!scheme) continue;
    if (scheme.type === 'apiKey') {
      if (scheme.in === 'query') url.searchParams.set(scheme.name, key);
      else if (scheme.in === 'cookie') args.push('-b', quote(`${scheme.name}=${key}`));
      else {
        const prefix = apiKeyPrefix(scheme);
        args.push('-H', quote(`${scheme.name}: ${prefix ? `${prefix} ` : ''}${key}`));
      }
    } else if (scheme.type === 'http' && scheme.scheme.toLowerCase() === 'basic')
      args.push('-u', quote(`${key}:`));
    else args.push('-H', quote(`Authorization: Bearer ${key}`));
  }
  return ['curl', ...args, quote(url.href)].join(' ');
}

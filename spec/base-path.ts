/**
 * Pure: the base path a document's operations live under, from its first server URL, and the test of a request
 * path against it. No node:* module: the browser engine uses it too.
 */

interface ServerLike {
  url: string;
  variables?: Record<string, { default?: unknown } | undefined>;
}

interface DocumentLike {
  servers?: readonly ServerLike[];
}

/**
 * The path of the first server URL (`https://{host}/v1` -> `/v1`), or `override` when one is given; `''` for no
 * servers or a root URL. Variables take their default; the path is kept as written (`/rest/Some+API/1.0.0`).
 */
export function basePathOf(document: DocumentLike, override?: string): string {
  if (override !== undefined) return normalizePath(override);
  const server = document.servers?.[0];
  if (!server) return '';
  return normalizePath(pathOfUrl(substituteVariables(server.url, server.variables ?? {})));
}

/**
 * The rest of `pathname` after `basePath` (`'/pets'` for `/v1/pets` under `/v1`, `''` for `/v1` itself), or
 * `undefined` when the request is not under it. Segments compare after percent-decoding, with `+` read as a
 * space, so `/rest/Some+API`, `/rest/Some%20API` and `/rest/Some%2BAPI` are one base path however the client
 * wrote it.
 */
export function matchBasePath(pathname: string, basePath: string): string | undefined {
  if (basePath === '') return pathname;
  if (pathname.startsWith(basePath) && isBoundary(pathname, basePath.length)) {
    return pathname.slice(basePath.length); // the common case, without decoding anything
  }
  const want = basePath.split('/');
  const got = pathname.split('/');
  if (got.length < want.length) return undefined;
  for (let i = 0; i < want.length; i++) {
    if (comparable(got[i] ?? '') !== comparable(want[i] ?? '')) return undefined;
  }
  const rest = got.slice(want.length);
  return rest.length ? `/${rest.join('/')}` : '';
}

const isBoundary = (pathname: string, at: number): boolean => at === pathname.length || pathname[at] === '/';

function comparable(segment: string): string {
  const spaced = segment.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced).replace(/\+/g, ' ');
  } catch {
    return spaced; // a stray `%` is compared as written
  }
}

/** `{name}` -> the variable's default; a variable without one (invalid OpenAPI) becomes an empty string. */
function substituteVariables(url: string, variables: NonNullable<ServerLike['variables']>): string {
  return url.replace(/\{([^}]*)\}/g, (_, name: string) => {
    const value = variables[name]?.default;
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  });
}

/**
 * The path part of an absolute (`https://host/v1`), scheme-relative (`//host/v1`) or relative (`/v1`, `v1`)
 * URL. Not `new URL`: it would re-encode the path, and the base path must stay as the document wrote it.
 */
function pathOfUrl(url: string): string {
  let rest = url.trim().replace(/[?#].*$/s, '');
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  else if (rest.startsWith('://')) rest = rest.slice(1); // a scheme variable without a default
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    rest = slash === -1 ? '' : rest.slice(slash);
  }
  return rest;
}

/** Leading slash, no trailing slash, no `.` segments: `v1/` -> `/v1`, `/` and `.` -> `''`. */
function normalizePath(path: string): string {
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  return segments.length ? `/${segments.join('/')}` : '';
}

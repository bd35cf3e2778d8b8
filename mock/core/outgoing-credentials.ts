/**
 * Credentials the mock sends with a callback or a webhook (issue 33): the callback's (or webhook's) own `security`
 * names schemes of the document, and the settings' `callbackCredentials` give a credential per scheme. Pure: the
 * requirement, the schemes and the settings in; the headers and query parameters to add, and which of them are
 * secret (every record and the inspector mask them), out. The document's top-level `security` is the API's own
 * and says nothing of what a receiver wants, so only the callback's or webhook's operation is read.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { OutgoingCredential } from './settings';

export interface OutgoingAuth {
  headers: Record<string, string>;
  query: Record<string, string>;
  /** Lower-case header names and query names that carry a secret, and the secret values themselves. */
  secretHeaders: string[];
  secretQuery: string[];
  secretValues: string[];
  /** Why nothing (or not all) could be sent, when the settings give no credential that meets the security. */
  note?: string;
}

const none = (): OutgoingAuth => ({
  headers: {},
  query: {},
  secretHeaders: [],
  secretQuery: [],
  secretValues: [],
});

const tokenOf = (c: OutgoingCredential | undefined): string | undefined =>
  typeof c === 'string' ? c : (c?.token ?? c?.value);

/** Adds one scheme's credential to `out`; false when the settings give none that fits the scheme. */
function addScheme(
  out: OutgoingAuth,
  scheme: OpenAPIV3_1.SecuritySchemeObject | undefined,
  given: OutgoingCredential | undefined,
): boolean {
  if (!scheme || given === undefined) return false;
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
    const user = typeof given === 'string' ? given : given.username;
    const password = typeof given === 'string' ? '' : (given.password ?? '');
    if (user === undefined) return false;
    const encoded = btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)));
    out.headers.Authorization = `Basic ${encoded}`;
    out.secretHeaders.push('authorization');
    out.secretValues.push(encoded, ...(password ? [password] : []));
    return true;
  }
  const token = tokenOf(given);
  if (token === undefined) return false;
  out.secretValues.push(token);
  if (scheme.type === 'apiKey') {
    if (scheme.in === 'query') {
      out.query[scheme.name] = token;
      out.secretQuery.push(scheme.name);
    } else if (scheme.in === 'cookie') {
      out.headers.Cookie = `${scheme.name}=${encodeURIComponent(token)}`;
      out.secretHeaders.push('cookie');
    } else {
      out.headers[scheme.name] = token;
      out.secretHeaders.push(scheme.name.toLowerCase());
    }
    return true;
  }
  // http bearer (or another http scheme), oauth2, openIdConnect: a bearer token.
  const word = scheme.type === 'http' && scheme.scheme ? scheme.scheme : 'Bearer';
  out.headers.Authorization = `${word.charAt(0).toUpperCase()}${word.slice(1)} ${token}`;
  out.secretHeaders.push('authorization');
  return true;
}

/**
 * Pure: the credentials for the first alternative of `security` that the settings can meet whole (an empty
 * requirement needs none); with none met, nothing is added and `note` names what is missing.
 */
export function outgoingAuth(
  security: readonly OpenAPIV3_1.SecurityRequirementObject[] | undefined,
  schemes: Readonly<Record<string, OpenAPIV3_1.SecuritySchemeObject>>,
  given: Readonly<Record<string, OutgoingCredential>>,
): OutgoingAuth {
  if (!security || security.length === 0) return none();
  for (const requirement of security) {
    const names = Object.keys(requirement);
    if (names.length === 0) return none();
    const out = none();
    if (names.every((n) => addScheme(out, schemes[n], given[n]))) return out;
  }
  const wanted = security.map((r) => Object.keys(r).join(' + ')).join(' or ');
  return { ...none(), note: `sent without credentials: callbackCredentials gives none for ${wanted}` };
}

/** Pure: `url` with the query parameters added (kept as given when it is no absolute URL). */
export function withQuery(url: string, query: Readonly<Record<string, string>>): string {
  if (Object.keys(query).length === 0) return url;
  try {
    const u = new URL(url);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    return u.toString();
  } catch {
    return url;
  }
}

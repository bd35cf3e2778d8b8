/**
 * Where a credential goes, as the document's security schemes say (OpenAPI 3.1 §4.8.27): http bearer, oauth2
 * and openIdConnect in `Authorization: Bearer`, http basic with the key as the user name, apiKey in a header,
 * a query parameter or a cookie under the scheme's name. Pure: scheme and value in, request parts out.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { apiKeyPrefix } from '../../spec/api-key-prefix';

export type SecurityScheme = OpenAPIV3_1.SecuritySchemeObject;

/** Request parts that carry credentials. */
export interface Placement {
  headers: Record<string, string>;
  query: Record<string, string>;
}

export const emptyPlacement = (): Placement => ({ headers: {}, query: {} });

/** `bearer`, `basic`, `header`, `query`, `cookie`: the shape of a scheme, for labels and wrong-scheme picks. */
export type SchemeKind = 'bearer' | 'basic' | 'header' | 'query' | 'cookie' | 'other';

/** The kind of a scheme. */
export function schemeKind(scheme: SecurityScheme | undefined): SchemeKind {
  if (!scheme) return 'other';
  if (scheme.type === 'http') {
    const s = (scheme.scheme ?? '').toLowerCase();
    return s === 'basic' ? 'basic' : s === 'bearer' ? 'bearer' : 'other';
  }
  if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return 'bearer';
  if (scheme.type === 'apiKey')
    return scheme.in === 'query' ? 'query' : scheme.in === 'cookie' ? 'cookie' : 'header';
  return 'other';
}

/** Add `value` as the credential of `scheme` to `into` (returned for chaining). */
export function place(
  scheme: SecurityScheme | undefined,
  value: string,
  into: Placement = emptyPlacement(),
): Placement {
  const kind = schemeKind(scheme);
  const name = scheme && scheme.type === 'apiKey' ? scheme.name : '';
  if (kind === 'bearer') into.headers.Authorization = `Bearer ${value}`;
  else if (kind === 'basic')
    into.headers.Authorization = `Basic ${Buffer.from(`${value}:`).toString('base64')}`;
  else if (kind === 'header') {
    const prefix = apiKeyPrefix(scheme);
    into.headers[name] = prefix ? `${prefix} ${value}` : value;
  } else if (kind === 'query') into.query[name] = value;
  else if (kind === 'cookie') {
    const cookie = `${name}=${value}`;
    into.headers.Cookie = into.headers.Cookie ? `${into.headers.Cookie}; ${cookie}` : cookie;
  }
  return into;
}

/** Headers and query parameters that carry secrets in this document: masked in every record. */
export function secretNames(schemes: Record<string, SecurityScheme>): {
  headers: Set<string>;
  query: Set<string>;
} {
  const headers = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
  const query = new Set<string>();
  for (const scheme of Object.values(schemes)) {
    if (scheme.type !== 'apiKey') continue;
    if (scheme.in === 'header') headers.add(scheme.name.toLowerCase());
    if (scheme.in === 'query') query.add(scheme.name);
  }
  return { headers, query };
}

/**
 * How each security scheme of the document carries a key (OpenAPI Security Scheme Object), worked out once:
 * http bearer, oauth2 and openIdConnect: `Authorization: Bearer <key>`; http basic: the key as the user name
 * (any password, as Stripe does) or as the password (any user name); apiKey: a header, query parameter or cookie
 * of the scheme's name. The keys file stays the one list of valid credentials.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { apiKeyCandidates } from '../../spec/api-key-prefix';

export interface CredentialReader {
  scheme: string;
  kind: 'bearer' | 'basic' | 'apiKey';
  /** For the `WWW-Authenticate` challenge of a 401. */
  challenge: string;
  /** The candidate keys this request carries for the scheme, or a problem saying why there are none. */
  read(
    headers: Readonly<Record<string, string | string[] | undefined>>,
    query: () => Record<string, string[]>,
  ): { keys: string[] } | { problem: string };
}

const header = (
  h: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** `Authorization: <scheme> <rest>`, the scheme compared case-insensitively; undefined when absent or another. */
function authorization(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  scheme: string,
): { value: string } | { problem: string } {
  const raw = header(headers, 'authorization');
  if (raw === undefined) return { problem: 'missing Authorization header' };
  const space = raw.indexOf(' ');
  const given = space === -1 ? raw : raw.slice(0, space);
  // As sent (`Bearer`) the scheme matches without a lower-cased copy of either side.
  if (given !== scheme && given.toLowerCase() !== scheme.toLowerCase())
    return { problem: `Authorization scheme must be ${scheme}` };
  const value = space === -1 ? '' : raw.slice(space + 1).trim();
  return value === '' ? { problem: `empty ${scheme.toLowerCase()} token` } : { value };
}

function bearerReader(scheme: string): CredentialReader {
  return {
    scheme,
    kind: 'bearer',
    challenge: 'Bearer realm="mock"',
    read(headers) {
      const a = authorization(headers, 'Bearer');
      return 'problem' in a ? a : { keys: [a.value] };
    },
  };
}

function basicReader(scheme: string): CredentialReader {
  return {
    scheme,
    kind: 'basic',
    challenge: 'Basic realm="mock", charset="UTF-8"',
    read(headers) {
      const a = authorization(headers, 'Basic');
      if ('problem' in a) return a;
      let decoded: string;
      try {
        decoded = new TextDecoder('utf-8', { fatal: true }).decode(
          Uint8Array.from(atob(a.value), (c) => c.charCodeAt(0)),
        );
      } catch {
        return { problem: 'Basic credentials are not valid base64' };
      }
      const colon = decoded.indexOf(':');
      if (colon === -1) return { problem: 'Basic credentials need user:password' };
      return { keys: [decoded.slice(0, colon), decoded.slice(colon + 1)].filter(Boolean) };
    },
  };
}

function apiKeyReader(scheme: string, where: string, name: string): CredentialReader {
  const lower = name.toLowerCase();
  return {
    scheme,
    kind: 'apiKey',
    challenge: `ApiKey realm="mock", ${where}="${name}"`,
    read(headers, query) {
      let value: string | undefined;
      if (where === 'header') value = header(headers, lower);
      else if (where === 'query') value = query()[name]?.[0];
      else value = cookie(header(headers, 'cookie'), name);
      if (!value) return { problem: `missing ${where} ${name}` };
      // An apiKey in Authorization is often sent as `Token <key>` (or Bearer, Basic): the bare key and the
      // part after one word are both candidates; the keys file decides which one is a key.
      return { keys: lower === 'authorization' ? apiKeyCandidates(value) : [value] };
    },
  };
}

function cookie(raw: string | undefined, name: string): string | undefined {
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return part.slice(eq + 1).trim();
      }
    }
  }
  return undefined;
}

/** One reader per scheme the document declares; with none, a bearer reader so keys still set the limits. */
export function credentialReaders(
  schemes: Readonly<Record<string, OpenAPIV3_1.SecuritySchemeObject>>,
): CredentialReader[] {
  const readers: CredentialReader[] = [];
  for (const [name, s] of Object.entries(schemes)) {
    if (s.type === 'http' && s.scheme?.toLowerCase() === 'basic') readers.push(basicReader(name));
    else if (s.type === 'http' || s.type === 'oauth2' || s.type === 'openIdConnect')
      readers.push(bearerReader(name));
    else if (s.type === 'apiKey') readers.push(apiKeyReader(name, s.in, s.name));
  }
  return readers.length ? readers : [bearerReader('')];
}

/**
 * An apiKey scheme in the `Authorization` header whose description shows a prefix (`Token <key>`, `Bearer
 * <token>`, `Basic <credentials>`): the word clients put before the key, as the document shows it. Many APIs
 * (Django REST framework, GitLab, the RealWorld spec) declare `Authorization: Token <key>` as an apiKey scheme.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

const WORDS = '(Token|Bearer|Basic|ApiKey|Api-Key|Key|JWT)';
// A word followed by a placeholder (`Token <key>`, `Token {token}`) is what the document shows; only without
// one, a word followed by a value (`Bearer YOUR_KEY`, `Token abc123`), so prose ("Send your key as …") is no prefix.
const SHOWN = [
  new RegExp(`\\b${WORDS}\\s+(?:<[^>\\s]+>|\\{[^}\\s]+\\})`, 'i'),
  new RegExp(`\\b${WORDS}\\s+[A-Za-z0-9_.$-]+`, 'i'),
];

/** The prefix word the description of an apiKey `Authorization` scheme shows, or undefined. */
export function apiKeyPrefix(scheme: OpenAPIV3_1.SecuritySchemeObject | undefined): string | undefined {
  if (!scheme || scheme.type !== 'apiKey' || scheme.in !== 'header') return undefined;
  if (scheme.name.toLowerCase() !== 'authorization') return undefined;
  for (const shown of SHOWN) {
    const m = shown.exec(scheme.description ?? '');
    if (m) return m[1];
  }
  return undefined;
}

/** The candidate keys in an `Authorization` value for an apiKey scheme: the bare value and, after any one word, the rest. */
export function apiKeyCandidates(value: string): string[] {
  const trimmed = value.trim();
  const space = trimmed.indexOf(' ');
  if (space === -1) return trimmed ? [trimmed] : [];
  const rest = trimmed.slice(space + 1).trim();
  return rest ? [rest, trimmed] : [trimmed];
}

/**
 * An apiKey scheme in the `Authorization` header whose description shows a prefix (`Token <key>`, `Bearer
 * <token>`, `Basic <credentials>`): the word clients put before the key, as the document shows it. Many APIs
 * (Django REST framework, GitLab, the RealWorld spec) declare `Authorization: Token <key>` as an apiKey scheme.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

// A word followed by a placeholder: `Token <key>`, `Token {token}`, `Bearer YOUR_KEY`, `Token abc123`.
const SHOWN = /\b(Token|Bearer|Basic|ApiKey|Api-Key|Key|JWT)\s+(?:<[^>\s]+>|\{[^}\s]+\}|[A-Za-z0-9_.$-]+)/i;

/** The prefix word the description of an apiKey `Authorization` scheme shows, or undefined. */
export function apiKeyPrefix(scheme: OpenAPIV3_1.SecuritySchemeObject | undefined): string | undefined {
  if (!scheme || scheme.type !== 'apiKey' || scheme.in !== 'header') return undefined;
  if (scheme.name.toLowerCase() !== 'authorization') return undefined;
  const m = SHOWN.exec(scheme.description ?? '');
  return m?.[1];
}

/** The candidate keys in an `Authorization` value for an apiKey scheme: the bare value and, after any one word, the rest. */
export function apiKeyCandidates(value: string): string[] {
  const trimmed = value.trim();
  const space = trimmed.indexOf(' ');
  if (space === -1) return trimmed ? [trimmed] : [];
  const rest = trimmed.slice(space + 1).trim();
  return rest ? [rest, trimmed] : [trimmed];
}

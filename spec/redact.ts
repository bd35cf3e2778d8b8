/**
 * No secret in any message: credentials inside URLs are masked before a URL is printed or logged, also when
 * the URL is malformed (then everything before its last `@` after the scheme goes).
 */

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Pure: `url` with its password masked (`redis://user:***@host`); a malformed one keeps no user part at all. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    const shown = parsed.toString();
    return url.endsWith('/') ? shown : shown.replace(/\/$/, '');
  } catch {
    const at = url.lastIndexOf('@');
    if (at === -1) return url;
    return `${SCHEME.exec(url)?.[0] ?? ''}***${url.slice(at)}`;
  }
}

/** Pure: every `scheme://…@` in free text with its user part masked (for error messages and log lines). */
export function maskSecrets(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s"'<>]*@/gi, '$1***@');
}

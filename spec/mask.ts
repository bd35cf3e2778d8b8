/** Keep API keys out of everything the runner and the proxy print or store (spec/redact.ts masks URL credentials in logs). */

/** `free-demo-key` -> `free…(masked)`. */
export function maskValue(value: string): string {
  return value ? `${value.slice(0, 4)}…(masked)` : value;
}

/** `Bearer free-demo-key` -> `Bearer free…(masked)`; other Authorization values keep only their scheme. */
export function maskAuthorization(value: string): string {
  const m = /^(\S+)\s+(.*)$/.exec(value);
  if (!m) return maskValue(value);
  const [, scheme, token = ''] = m;
  return token ? `${scheme} ${maskValue(token)}` : `${scheme} `;
}

/** `a=secret; b=other` -> `a=secr…(masked); b=othe…(masked)` (Cookie and Set-Cookie values). */
export function maskCookie(value: string): string {
  return value
    .split(/;\s*/)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? pair : `${pair.slice(0, eq)}=${maskValue(pair.slice(eq + 1))}`;
    })
    .join('; ');
}

/** Replace every occurrence of each secret (non-empty) by its masked form. */
export function maskKnownSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4 || !out.includes(secret)) continue;
    out = out.split(secret).join(maskValue(secret));
  }
  return out;
}

/** Mask the named headers (lower-case names): Authorization by scheme, cookies per value, others whole. */
export function maskHeaderValues(
  headers: Record<string, string>,
  secretHeaders: ReadonlySet<string>,
  secrets: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') out[name] = maskAuthorization(value);
    else if (lower === 'cookie' || lower === 'set-cookie') out[name] = maskCookie(value);
    else if (secretHeaders.has(lower)) out[name] = maskValue(value);
    else out[name] = maskKnownSecrets(value, secrets);
  }
  return out;
}

/** Mask the named query parameters of a URL, and any secret anywhere in it. */
export function maskUrlSecrets(
  url: string,
  secretQuery: ReadonlySet<string>,
  secrets: readonly string[],
): string {
  let out = url;
  for (const name of secretQuery) {
    const escaped = encodeURIComponent(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`([?&]${escaped}=)([^&#]*)`, 'g'), (_m, head: string, value: string) =>
      value ? `${head}${maskValue(decodeURIComponent(value))}` : head,
    );
  }
  return maskKnownSecrets(out, secrets);
}

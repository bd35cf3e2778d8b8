/** Keep API keys out of everything the runner prints or stores. */

/** `Bearer free-demo-key` -> `Bearer free…(masked)`; other Authorization values keep only their scheme. */
export function maskAuthorization(value: string): string {
  const m = /^(\S+)\s+(.*)$/.exec(value);
  if (!m) return value ? `${value.slice(0, 4)}…(masked)` : value;
  const [, scheme, token = ''] = m;
  return token ? `${scheme} ${token.slice(0, 4)}…(masked)` : `${scheme} `;
}

/** Replace every occurrence of each secret (non-empty) by its masked form. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    out = out.split(secret).join(`${secret.slice(0, 4)}…(masked)`);
  }
  return out;
}

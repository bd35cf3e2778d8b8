/** Pure: a failing request as a `curl` command to paste; the key is the environment's, never written out. */

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** `curl -X POST "$TARGET/path" -H "Authorization: Bearer $CONFORMANCE_API_KEY" … -d '{…}'`. */
export function curlFor(req: {
  method: string;
  target: string;
  path: string;
  contentType?: string;
  body?: string;
}): string {
  const parts = [`curl -i -X ${req.method}`, `"${req.target.replace(/\/+$/, '')}${req.path}"`];
  parts.push('-H "Authorization: Bearer $CONFORMANCE_API_KEY"');
  if (req.body !== undefined) {
    parts.push(`-H ${quote(`Content-Type: ${req.contentType ?? 'application/json'}`)}`);
    parts.push(`--data-raw ${quote(req.body)}`);
  }
  return parts.join(' ');
}

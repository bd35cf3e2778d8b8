/** Pure: a recorded (masked) request -> a `curl` command that replays it with the key taken from the environment. */
import type { RecordedRequest } from '../types';

const MASKED = /[^\s=&?;]{0,4}…\(masked\)/g;
const KEY_REF = '$CONFORMANCE_API_KEY';
const HOP_BY_HOP = new Set(['content-length', 'host', 'connection', 'accept-encoding', 'user-agent']);

/** `'it''s'` for the shell: single quotes, each inner one closed, escaped and reopened. */
const single = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
/** Double quotes keep `$CONFORMANCE_API_KEY` expanded; what else the shell reads there is escaped. */
const double = (text: string): string =>
  `"${text.replace(/(["\\`])/g, '\\$1').replace(/\$(?!CONFORMANCE_API_KEY)/g, '\\$')}"`;

/** The curl command of `request`; a masked key becomes `$CONFORMANCE_API_KEY`, never the key itself. */
export function curlOf(request: RecordedRequest): string {
  const parts = ['curl', '-sS', '-X', request.method];
  const url = request.url.replace(MASKED, KEY_REF);
  parts.push(url.includes(KEY_REF) ? double(url) : single(url));
  for (const [name, value] of Object.entries(request.headers)) {
    if (HOP_BY_HOP.has(name.toLowerCase())) continue;
    const header = `${name}: ${value.replace(MASKED, KEY_REF)}`;
    parts.push('-H', header.includes(KEY_REF) ? double(header) : single(header));
  }
  if (request.body !== undefined && request.body !== '') parts.push('--data-raw', single(request.body));
  return parts.join(' ');
}

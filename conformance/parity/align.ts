/**
 * Pure: pair the exchanges two runs made. Both runs send the same cases in the same order (one seed, one data
 * prefix, one check at a time), but a server that answers differently changes what follows (no read after a
 * refused create), so the two sequences are aligned on what was asked (operation, method, query, body), not
 * paired by position: a longest common subsequence, the rest reported as sent to one side only.
 */
import type { Exchange } from '../types';

/** Longest sequences aligned in full; past this the tail is paired by position (memory stays bounded). */
export const MAX_ALIGNED = 3000;

/** What a request asked, with the ids a server chose left out (`/members/7` and `/members/12` ask the same). */
export function requestKey(e: Exchange): string {
  const url = e.request.url.replace(/^[a-z]+:\/\/[^/]+/i, '');
  const [pathname = '', query = ''] = url.split('?');
  const ids = (s: string) => s.replace(/\/[0-9a-f-]{1,64}(?=\/|$)/gi, '/{id}');
  return `${e.operationId ?? ids(pathname)} ${e.request.method} ${query} ${e.request.body ?? ''}`;
}

export type Aligned =
  { a: Exchange; b: Exchange } | { a: Exchange; b?: undefined } | { a?: undefined; b: Exchange };

/** The two sequences aligned: pairs where they asked the same, singles where only one side asked. */
export function alignExchanges(as: readonly Exchange[], bs: readonly Exchange[]): Aligned[] {
  const n = Math.min(as.length, MAX_ALIGNED);
  const m = Math.min(bs.length, MAX_ALIGNED);
  const ka = as.slice(0, n).map(requestKey);
  const kb = bs.slice(0, m).map(requestKey);
  // lengths[i * (m + 1) + j]: the longest common subsequence of ka[i..] and kb[j..].
  const lengths = new Uint16Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => lengths[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lengths[i * (m + 1) + j] =
        ka[i] === kb[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  const out: Aligned[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (ka[i] === kb[j]) out.push({ a: as[i++] as Exchange, b: bs[j++] as Exchange });
    else if (at(i + 1, j) >= at(i, j + 1)) out.push({ a: as[i++] as Exchange });
    else out.push({ b: bs[j++] as Exchange });
  }
  for (; i < n; i++) out.push({ a: as[i] as Exchange });
  for (; j < m; j++) out.push({ b: bs[j] as Exchange });
  // Beyond the aligned window: by position.
  for (let k = 0; k < Math.max(as.length, bs.length) - MAX_ALIGNED; k++) {
    const a = as[MAX_ALIGNED + k];
    const b = bs[MAX_ALIGNED + k];
    if (a && b) out.push({ a, b });
    else if (a) out.push({ a });
    else if (b) out.push({ b });
  }
  return out;
}

/**
 * Reading recorded traffic (HAR 1.2, as browsers, Playwright, the runner's `--record` and the proxy write it):
 * the entries and their headers, for the proxy's judge (`--judge-har`, `--diff --har`) and the mock's
 * `--seed-har`. Pure.
 */

export interface HarPair {
  name: string;
  value: string;
}

/** The parts of a HAR entry the judge reads (browsers, Playwright and the runner's `--record` all write them). */
export interface HarLikeEntry {
  request: {
    method: string;
    url: string;
    headers?: HarPair[];
    postData?: { mimeType?: string; text?: string };
  };
  response: {
    status: number;
    headers?: HarPair[];
    /** `_truncated` or a comment starting `truncated`: the recorder did not keep the body whole. */
    content?: { text?: string; encoding?: string; comment?: string; _truncated?: boolean };
  };
  startedDateTime?: string;
  time?: number;
}

/** HAR header pairs as one lower-cased record (repeated names joined with `, `). */
export const lowerHeaders = (pairs: HarPair[] | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const { name, value } of pairs ?? []) {
    const key = name.toLowerCase();
    // HTTP/2 pseudo-headers (`:authority`) are not headers of the exchange.
    if (key.startsWith(':')) continue;
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  }
  return out;
};

/** Entries of a parsed HAR document, or an error naming what is missing. */
export function harEntries(
  har: unknown,
): { ok: true; entries: HarLikeEntry[] } | { ok: false; error: string } {
  const entries = (har as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) return { ok: false, error: 'not a HAR file: no log.entries array' };
  const bad = entries.findIndex(
    (e: HarLikeEntry) => typeof e?.request?.url !== 'string' || typeof e?.response?.status !== 'number',
  );
  if (bad >= 0) return { ok: false, error: `HAR entry ${bad} has no request.url or response.status` };
  return { ok: true, entries: entries as HarLikeEntry[] };
}

/** The response body text of an entry (base64 decoded), or undefined when there is none. */
export function responseText(e: HarLikeEntry): string | undefined {
  const content = e.response.content;
  if (content?.text === undefined) return undefined;
  if (content.encoding !== 'base64') return content.text;
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(content.text), (c) => c.charCodeAt(0)));
  } catch {
    return undefined; // not base64 after all
  }
}

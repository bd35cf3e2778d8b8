/** Recorded traffic judged offline: each HAR entry through the same judge the proxy uses, in recorded order. */
import type { LoadedSpec } from '../../spec/load';
import { createJudge, type Judge } from './judge';

interface HarPair {
  name: string;
  value: string;
}

/** The parts of a HAR entry the judge reads (browsers, Playwright and the runner's `--record` all write them). */
interface HarLikeEntry {
  request: {
    method: string;
    url: string;
    headers?: HarPair[];
    postData?: { mimeType?: string; text?: string };
  };
  response: {
    status: number;
    headers?: HarPair[];
    content?: { text?: string; encoding?: string; comment?: string; _truncated?: boolean };
  };
  startedDateTime?: string;
  time?: number;
}

/**
 * When the entry's answer came, from the HAR alone: its `Date` header (the server's own clock, which the
 * rate-limit headers are relative to), else `startedDateTime` plus `time`; undefined when it has neither.
 */
export function entryTime(e: HarLikeEntry, responseHeaders: Record<string, string>): number | undefined {
  const date = Date.parse(responseHeaders.date ?? '');
  if (Number.isFinite(date)) return date;
  const started = Date.parse(e.startedDateTime ?? '');
  return Number.isFinite(started) ? started + Math.max(0, Number(e.time) || 0) : undefined;
}

/** A body the recorder did not keep whole (the proxy's `_truncated`, or a comment saying so): never judged. */
const truncated = (content: HarLikeEntry['response']['content']): boolean =>
  content?._truncated === true || /^truncated\b/i.test(content?.comment ?? '');

const lower = (pairs: HarPair[] | undefined): Record<string, string> => {
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

/**
 * Judge every entry; a status 0 (a browser's aborted request) had no answer and is skipped. A pure function of
 * the HAR and the document: every time is the entry's own (`entryTime`), never the clock of the judging machine.
 */
export function judgeHar(
  spec: LoadedSpec,
  entries: readonly HarLikeEntry[],
  maxBodyBytes = 1_048_576,
): Judge {
  let clock = 0;
  for (const e of entries) {
    const t = entryTime(e, lower(e.response?.headers));
    if (t !== undefined) {
      clock = t;
      break;
    }
  }
  const judge = createJudge(spec, () => clock);
  for (const e of entries) {
    if (e.response.status === 0) continue;
    let url: URL;
    try {
      url = new URL(e.request.url, 'http://recorded.invalid'); // the proxy's own HAR records paths
    } catch {
      continue;
    }
    const requestHeaders = lower(e.request.headers);
    if (e.request.postData?.mimeType && !requestHeaders['content-type'])
      requestHeaders['content-type'] = e.request.postData.mimeType;
    const req = {
      method: e.request.method.toUpperCase(),
      url: `${url.pathname}${url.search}`,
      headers: requestHeaders,
      body: e.request.postData?.text,
    };
    const content = e.response.content;
    const text =
      content?.encoding === 'base64'
        ? Buffer.from(content.text ?? '', 'base64').toString('utf8')
        : (content?.text ?? '');
    const tooLarge = truncated(content) || Buffer.byteLength(text) > maxBodyBytes;
    const headers = lower(e.response.headers);
    clock = entryTime(e, headers) ?? clock;
    const { route, problems } = judge.request(req);
    judge.response(req, route, problems, {
      status: e.response.status,
      headers,
      body: tooLarge ? undefined : text,
      bodyTooLarge: tooLarge,
      at: clock,
    });
  }
  return judge;
}

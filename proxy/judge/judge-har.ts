/** Recorded traffic judged offline: each HAR entry through the same judge the proxy uses, in recorded order. */
import type { LoadedSpec } from '../../spec/load';
import { createJudge, type Judge } from './judge';
import type { ObservedRequest } from './judge-request';
import type { ObservedResponse } from './judge-response';
import { lowerHeaders as lower, type HarLikeEntry } from '../../spec/report/har-read';

export { harEntries, type HarLikeEntry } from '../../spec/report/har-read';

/** One entry as the judge sees it, or undefined for one it cannot read (a URL that does not parse). */
export function observedOf(
  e: HarLikeEntry,
  maxBodyBytes = 1_048_576,
): { req: ObservedRequest; res: ObservedResponse } | undefined {
  let url: URL;
  try {
    url = new URL(e.request.url, 'http://recorded.invalid'); // the proxy's own HAR records paths
  } catch {
    return undefined;
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
  const res = {
    status: e.response.status,
    headers,
    body: tooLarge ? undefined : text,
    bodyTooLarge: tooLarge,
    at: entryTime(e, headers),
  };
  return { req, res };
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
    const seen = observedOf(e, maxBodyBytes);
    if (!seen) continue;
    clock = seen.res.at ?? clock;
    const { route, problems } = judge.request(seen.req);
    judge.response(seen.req, route, problems, { ...seen.res, at: clock });
  }
  return judge;
}

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
  const tooLarge = Buffer.byteLength(text) > maxBodyBytes;
  const res = {
    status: e.response.status,
    headers: lower(e.response.headers),
    body: tooLarge ? undefined : text,
    bodyTooLarge: tooLarge,
  };
  return { req, res };
}

/** Judge every entry; a status 0 (a browser's aborted request) had no answer and is skipped. */
export function judgeHar(
  spec: LoadedSpec,
  entries: readonly HarLikeEntry[],
  maxBodyBytes = 1_048_576,
): Judge {
  const judge = createJudge(spec);
  for (const e of entries) {
    if (e.response.status === 0) continue;
    const seen = observedOf(e, maxBodyBytes);
    if (!seen) continue;
    const { route, problems } = judge.request(seen.req);
    judge.response(seen.req, route, problems, seen.res);
  }
  return judge;
}

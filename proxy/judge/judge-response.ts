/** Response-side rules (the server's fault), reusing the runner's response checks on one exchange. Pure. */
import { documentedResponse } from '../../spec/compile';
import type { LoadedSpec } from '../../spec/load';
import { checkResponses } from '../../spec/http/response-checks';
import type { Exchange, RecordedResponse } from '../../spec/report/types';
import type { ObservedRequest, Problem, Route } from './judge-request';

/** An upstream answer as the judge sees it: headers lower-cased, body text when judged. */
export interface ObservedResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
  bodyTooLarge?: boolean;
  /** When the answer came (ms since epoch): a recorded exchange's own time, never the judge's clock. */
  at?: number;
}

/** The runner's recorded form of one observed exchange (masked by the caller before it is kept). */
export function toExchange(req: ObservedRequest, res: ObservedResponse, route: Route, at: number): Exchange {
  const recorded: RecordedResponse = { status: res.status, headers: res.headers, body: res.body ?? '' };
  try {
    if (res.body) recorded.json = JSON.parse(res.body) as unknown;
  } catch {
    // not JSON: response.json says so
  }
  return {
    request: { method: req.method, url: req.url, headers: req.headers, body: req.body },
    response: recorded,
    operationId: route.op?.operationId,
    sentAt: res.at ?? at,
    receivedAt: res.at ?? at,
  };
}

/** Every response-side problem of one exchange; `requestProblems` are the client's, for `response.accepted-invalid`. */
export function judgeResponse(
  spec: LoadedSpec,
  exchange: Exchange,
  requestProblems: readonly Problem[],
  res: ObservedResponse,
): Problem[] {
  const out: Problem[] = [];
  if (!res.bodyTooLarge) {
    // A refusal with the status HTTP gives the client's own fault (415 for a media type the document does not
    // take) is not the server's fault even where the document lists no such status.
    const refusal = requestProblems.some((p) => p.status === res.status);
    for (const f of checkResponses(spec, [exchange]))
      if (f.outcome === 'fail' && !(refusal && f.ruleId === 'response.documented-status'))
        out.push({ side: 'response', rule: f.ruleId, message: f.problem ?? f.ruleId });
  }
  const status = res.status;
  if (status >= 200 && status < 300 && requestProblems.length > 0)
    out.push({
      side: 'response',
      rule: 'response.accepted-invalid',
      message: `answered ${status} to a request the document forbids (${requestProblems.map((p) => p.rule).join(', ')})`,
    });
  const empty = (res.body ?? '') === '' && !res.bodyTooLarge;
  const op = exchange.operationId ? spec.byId.get(exchange.operationId) : undefined;
  const documented = op && documentedResponse(op, status);
  if (documented && documented.mediaTypes.length === 0 && !empty && exchange.request.method !== 'HEAD')
    out.push({
      side: 'response',
      rule: 'response.empty-body',
      message: `${status} documents no body, but one was sent`,
    });
  out.push(...ietfProblems(res));
  return out;
}

/** IETF `RateLimit` fields where sent: `r` never above `q`; a 429 carries a valid `Retry-After`. */
function ietfProblems(res: ObservedResponse): Problem[] {
  const out: Problem[] = [];
  const field = res.headers.ratelimit;
  const policy = res.headers['ratelimit-policy'];
  const r = field ? /\br=(\d+)/.exec(field)?.[1] : undefined;
  const q = policy ? /\bq=(\d+)/.exec(policy)?.[1] : undefined;
  if (r !== undefined && q !== undefined && Number(r) > Number(q))
    out.push({
      side: 'response',
      rule: 'ratelimit.ietf',
      message: `RateLimit r=${r} is above RateLimit-Policy q=${q}`,
    });
  if (res.status === 429) {
    const retry = res.headers['retry-after'];
    if (retry === undefined || !/^\d+$/.test(retry.trim()))
      out.push({
        side: 'response',
        rule: 'ratelimit.retry-after',
        message: `429 with Retry-After ${retry ?? 'missing'}`,
      });
  }
  return out;
}

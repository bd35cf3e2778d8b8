/**
 * Response-side rules (the server's fault): the runner's response checks on one exchange (spec/http/
 * response-checks.ts, the empty-body rule included; the IETF fields by spec/http/ratelimit-ietf.ts), and
 * `response.accepted-invalid` from the same file. Pure.
 */
import type { LoadedSpec } from '../../spec/load';
import { rateLimitFieldsJudge } from '../../spec/http/ratelimit-ietf';
import { acceptedInvalidProblem, responseChecker } from '../../spec/http/response-checks';
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

/**
 * The last answer's text and its value: an answer the same to the byte as the one before it (a list polled, a
 * read repeated: most traffic through a proxy) is not parsed again. One entry, so nothing grows; the value is
 * only read (the checks, the state rules), never changed, and a kept exchange keeps a masked copy without it.
 */
let lastParsed: { text: string; json: unknown } | undefined;

function parsedJson(text: string): unknown {
  if (lastParsed?.text === text) return lastParsed.json;
  const json = JSON.parse(text) as unknown; // throws for text that is not JSON: nothing is remembered
  lastParsed = { text, json };
  return json;
}

/** The runner's recorded form of one observed exchange (masked by the caller before it is kept). */
export function toExchange(req: ObservedRequest, res: ObservedResponse, route: Route, at: number): Exchange {
  const recorded: RecordedResponse = { status: res.status, headers: res.headers, body: res.body ?? '' };
  try {
    if (res.body) recorded.json = parsedJson(res.body);
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

/** The runner's checks read the document once (its rate-limit headers…): once per document, not per answer. */
const checkers = new WeakMap<LoadedSpec, ReturnType<typeof responseChecker>>();
function checkerOf(spec: LoadedSpec): ReturnType<typeof responseChecker> {
  let checker = checkers.get(spec);
  if (!checker) checkers.set(spec, (checker = responseChecker(spec)));
  return checker;
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
    for (const f of checkerOf(spec)(exchange))
      if (f.outcome === 'fail' && !(refusal && f.ruleId === 'response.documented-status'))
        out.push({ side: 'response', rule: f.ruleId, message: f.problem ?? f.ruleId });
  }
  const accepted = acceptedInvalidProblem(
    res.status,
    requestProblems.map((p) => p.rule),
  );
  if (accepted) out.push({ side: 'response', rule: 'response.accepted-invalid', message: accepted });
  out.push(...ietfProblems(exchange));
  return out;
}

const IETF = rateLimitFieldsJudge();

/** The IETF `RateLimit` fields where sent, by the runner's own rules (spec/http/ratelimit-ietf.ts). */
function ietfProblems(exchange: Exchange): Problem[] {
  // Its `observe` judges each answer on its own (what it remembers is only for `finish`, never called here).
  return IETF.observe(exchange)
    .filter((f) => f.outcome === 'fail')
    .map((f) => ({ side: 'response', rule: f.ruleId, message: f.problem ?? f.ruleId }));
}

/** The transport-free judge: one exchange in, its violations out; keeps bounded logs for reports. */
import type { LoadedSpec } from '../../spec/load';
import { maskSecrets } from '../../spec/redact';
import type { Exchange, Report } from '../../spec/report/types';
import { buildJudgeReport, maskExchange, secretNames, type KeptProblem } from './judge-report';
import { judgeRequest, routeRequest, type ObservedRequest, type Problem, type Route } from './judge-request';
import { judgeResponse, toExchange, type ObservedResponse } from './judge-response';
import { createStateTracker } from './judge-state';

/** One violation as `GET /_mock/violations` lists it. */
/** The rules of an upstream that failed to answer whole (issue 31: they are findings, never a silent pass). */
export type UpstreamRule =
  'upstream.reachable' | 'upstream.timeout' | 'upstream.complete' | 'upstream.body-size';

export interface Violation {
  side: 'request' | 'response';
  rule: string;
  operationId?: string;
  method: string;
  path: string;
  status?: number;
  message: string;
  at: string;
}

/** The judge's state: counts and the newest violations (at most `maxKept`). */
export interface Judge {
  /** Request-side problems, before forwarding (enforce mode answers them itself). */
  request(req: ObservedRequest): { route: Route; problems: Problem[] };
  /** Response-side problems of a finished exchange; records every problem of both sides. */
  response(req: ObservedRequest, route: Route, requestProblems: Problem[], res: ObservedResponse): Problem[];
  /** Records request-side problems of a request the proxy answered itself (enforce mode). */
  refused(req: ObservedRequest, route: Route, problems: Problem[]): void;
  /**
   * Records an upstream failure (unreachable, timed out, cut mid-body, a body too large to judge) as a
   * response-side finding; `counted`: the exchange was recorded already (its head was judged).
   */
  upstream(
    req: ObservedRequest,
    route: Route,
    requestProblems: Problem[],
    failure: { rule: UpstreamRule; message: string; status: number },
    counted: boolean,
  ): void;
  /**
   * Records the problems of a callback the relay received (`--callbacks-relay`): response-side findings (the
   * upstream sent it), under the operation whose request named the callback; not counted as an exchange.
   */
  callback(req: ObservedRequest, operationId: string | undefined, problems: Problem[], status?: number): void;
  snapshot(): { exchanges: number; dropped: number; violations: Violation[] };
  /** The runner's Report of everything judged so far (one test case per operation and rule). */
  report(target: string): Report;
  /** The newest exchanges (masked, at most `maxKept`), for a HAR file. */
  recent(): Exchange[];
  /** Whether any response-side violation was seen (the exit code of `--fail-on-violations`). */
  responseViolations(): number;
}

/** Bounds of the judge's memory. */
export interface JudgeLimits {
  maxKept: number;
  maxTracked: number;
  maxRecent: number;
  /** Most body bytes the recent exchanges hold (their bodies are kept whole for the HAR); the oldest go first. */
  maxRecentBytes: number;
}

const LIMITS: JudgeLimits = {
  maxKept: 10_000,
  maxTracked: 10_000,
  maxRecent: 1000,
  maxRecentBytes: 64 * 1024 * 1024,
};

/** A judge over one document; `now` is passed in so tests control time. */
export function createJudge(
  spec: LoadedSpec,
  now: () => number = Date.now,
  limits: Partial<JudgeLimits> = {},
): Judge {
  const { maxKept, maxTracked, maxRecent, maxRecentBytes } = { ...LIMITS, ...limits };
  const secrets = secretNames(spec);
  const startedAt = now();
  const kept: (Violation & { kept: KeptProblem })[] = [];
  const recent: Array<{ ex: Exchange; bytes: number }> = [];
  let recentBytes = 0;
  /** Keep `ex` for the HAR with its bodies whole (masked), within the count and the byte budget. */
  const remember = (ex: Exchange, truncated: boolean) => {
    // No HAR asked for (`maxRecent` 0): nothing is masked or copied per exchange.
    if (maxRecent === 0) return;
    const whole = maskExchange(ex, secrets, Infinity);
    if (truncated) whole.truncated = true;
    const bytes = (whole.request.body?.length ?? 0) + (whole.response?.body.length ?? 0);
    recent.push({ ex: whole, bytes });
    recentBytes += bytes;
    while (recent.length > maxRecent || (recentBytes > maxRecentBytes && recent.length > 1))
      recentBytes -= recent.shift()?.bytes ?? 0;
  };
  const observedOps = new Set<string>();
  const pairs = new Map<string, Exchange>();
  /** Exchanges per (operation, status): the coverage file's counts (bounded by the document's pairs and 1xx-5xx). */
  const counts = new Map<string, number>();
  const state = createStateTracker(spec, maxTracked);
  let exchanges = 0;
  let dropped = 0;
  let responseSide = 0;
  const record = (
    req: ObservedRequest,
    route: Route,
    status: number | undefined,
    problems: Problem[],
    ex: Exchange,
    recorded: 'new' | 'again' = 'new',
    truncated = false,
  ) => {
    // Most exchanges break no rule: their time and masked copy are only made for one that does.
    const at = problems.length > 0 ? new Date(ex.receivedAt).toISOString() : '';
    const masked = problems.length > 0 ? maskExchange(ex, secrets) : ex;
    const path = problems.length > 0 ? (req.url.split('?')[0] ?? req.url) : '';
    for (const p of problems) {
      if (p.side === 'response') responseSide++;
      const message = maskSecrets(p.message);
      const operationId = route.op?.operationId;
      kept.push({
        side: p.side,
        rule: p.rule,
        operationId,
        method: req.method,
        path,
        status,
        message,
        at,
        kept: { problem: { ...p, message }, operationId, exchange: masked },
      });
      if (kept.length > maxKept) {
        kept.shift();
        dropped++;
      }
    }
    if (recorded === 'new') remember(ex, truncated);
  };
  const observe = (route: Route, ex: Exchange) => {
    const id = route.op?.operationId;
    if (!id) return;
    observedOps.add(id);
    const key = `${id} ${ex.response?.status ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (!pairs.has(key))
      pairs.set(key, {
        request: ex.request,
        response: ex.response && { status: ex.response.status, headers: {}, body: '' },
        operationId: id,
        receivedAt: ex.receivedAt,
      });
  };
  return {
    request(req) {
      const route = routeRequest(spec, req.method, req.url);
      return { route, problems: judgeRequest(spec, req, route) };
    },
    response(req, route, requestProblems, res) {
      exchanges++;
      const ex = toExchange(req, res, route, now());
      const problems = [...judgeResponse(spec, ex, requestProblems, res), ...state.observe(route, ex)];
      observe(route, ex);
      record(req, route, res.status, [...requestProblems, ...problems], ex, 'new', res.bodyTooLarge === true);
      return problems;
    },
    refused(req, route, problems) {
      exchanges++;
      const ex = toExchange(req, { status: problems[0]?.status ?? 400, headers: {} }, route, now());
      record(req, route, problems[0]?.status, problems, ex);
    },
    upstream(req, route, requestProblems, failure, counted) {
      const problem: Problem = { side: 'response', rule: failure.rule, message: failure.message };
      const ex = toExchange(req, { status: failure.status, headers: {} }, route, now());
      if (counted) return record(req, route, failure.status, [problem], ex, 'again');
      exchanges++;
      record(req, route, failure.status, [...requestProblems, problem], ex);
    },
    callback(req, operationId, problems, status) {
      if (problems.length === 0) return;
      const route: Route = {
        op: operationId ? spec.byId.get(operationId) : undefined,
        pathParams: {},
        pathKnown: false,
      };
      record(
        req,
        route,
        status,
        problems,
        toExchange(req, { status: status ?? 0, headers: {} }, route, now()),
        'again',
      );
    },
    snapshot: () => ({ exchanges, dropped, violations: kept.map(({ kept: _k, ...v }) => v) }),
    report: (target) =>
      buildJudgeReport(spec, {
        target,
        startedAt,
        now: now(),
        observedOps,
        pairs: [...pairs.values()],
        counts,
        kept: kept.map((k) => k.kept),
      }),
    recent: () => recent.map((r) => r.ex),
    responseViolations: () => responseSide,
  };
}

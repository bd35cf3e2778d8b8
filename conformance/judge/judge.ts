/** The transport-free judge: one exchange in, its violations out; keeps a bounded log for reports. */
import type { LoadedSpec } from '../../spec/load';
import { maskSecrets } from '../../mock/core/redact';
import { judgeRequest, routeRequest, type ObservedRequest, type Problem, type Route } from './judge-request';
import { judgeResponse, toExchange, type ObservedResponse } from './judge-response';

/** One violation as `GET /_mock/violations` lists it. */
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
  snapshot(): { exchanges: number; dropped: number; violations: Violation[] };
}

/** A judge over one document; `now` is passed in so tests control time. */
export function createJudge(spec: LoadedSpec, now: () => number = Date.now, maxKept = 10_000): Judge {
  const kept: Violation[] = [];
  let exchanges = 0;
  let dropped = 0;
  const record = (req: ObservedRequest, route: Route, status: number | undefined, problems: Problem[]) => {
    const at = new Date(now()).toISOString();
    for (const p of problems) {
      kept.push({
        side: p.side,
        rule: p.rule,
        operationId: route.op?.operationId,
        method: req.method,
        path: req.url.split('?')[0] ?? req.url,
        status,
        message: maskSecrets(p.message),
        at,
      });
      if (kept.length > maxKept) {
        kept.shift();
        dropped++;
      }
    }
  };
  return {
    request(req) {
      const route = routeRequest(spec, req.method, req.url.split('?')[0] ?? '/');
      return { route, problems: judgeRequest(spec, req, route) };
    },
    response(req, route, requestProblems, res) {
      exchanges++;
      const problems = judgeResponse(spec, toExchange(req, res, route, now()), requestProblems, res);
      record(req, route, res.status, [...requestProblems, ...problems]);
      return problems;
    },
    refused(req, route, problems) {
      exchanges++;
      record(req, route, problems[0]?.status, problems);
    },
    snapshot: () => ({ exchanges, dropped, violations: [...kept] }),
  };
}

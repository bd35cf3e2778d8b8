/**
 * One client request through the proxy, from its head to the end of its answer. However it ends (answered,
 * refused, the upstream failed, the client's own fault, the client gone) it is finished exactly once: judged
 * and logged in `finish`, never by hand at each exit. Whose fault an ending is decides its status: a client
 * that stalls or stops mid-request gets a 4xx (408, 400), and a 5xx is only ever about the upstream.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '../spec/error-codes';
import type { Judge, UpstreamRule } from './judge/judge';
import type { ObservedRequest, Problem, Route } from './judge/judge-request';
import type { ObservedResponse } from './judge/judge-response';
import type { createExchangeLog, LoggedExchange } from './exchange-log';
import { splitTarget } from './forward';
import type { OwnAnswer, OwnAnswers } from './own-answers';

/** What every exchange shares: the judge, the inspector's log, the proxy's own answers, the mode. */
export interface ExchangeDeps {
  judge: Judge;
  log: ReturnType<typeof createExchangeLog>;
  answers: OwnAnswers;
  mode: 'report' | 'enforce';
}

/** How an exchange ended, which decides what the judge and the log record. */
export type Ending =
  /**
   * The upstream answered; `enforceable`: enforce mode may still refuse it (not a live stream); `unjudged`: a
   * finding about its body, which was passed on without being judged (over --max-body-bytes).
   */
  | {
      kind: 'answered';
      response: ObservedResponse;
      enforceable: boolean;
      unjudged?: { rule: UpstreamRule; message: string };
    }
  /** Enforce mode answered the request's own problems itself. */
  | { kind: 'refused' }
  /** The upstream failed (unreachable, timed out, cut) or its answer was too large to judge. */
  | { kind: 'upstream'; rule: UpstreamRule; status: number; message: string }
  /** The client's own fault (a stall, a body cut short, malformed HTTP): logged, never the upstream's. */
  | { kind: 'client'; status: number; message: string }
  /** The client went away before its answer: nothing to judge. */
  | { kind: 'gone' };

const NO_ROUTE: Route = { pathParams: {}, pathKnown: false };

/** One request and its answer; `finish` records it, once. */
export class Exchange {
  readonly startedAt = Date.now();
  readonly path: string;
  readonly search: string;
  observed: ObservedRequest;
  route: Route = NO_ROUTE;
  problems: Problem[] = [];
  /** Set once the client's own fault ended the request (its answer given or impossible). */
  clientFault = false;
  private finished = false;
  private logged?: Pick<LoggedExchange, 'status' | 'violations'>;

  constructor(
    readonly req: http.IncomingMessage,
    readonly res: http.ServerResponse,
    private readonly deps: ExchangeDeps,
  ) {
    const target = splitTarget(req.url ?? '/');
    this.path = target.path;
    this.search = target.search;
    this.observed = { method: req.method ?? 'GET', url: req.url ?? '/', headers: {} };
  }

  /** Judge and log how the exchange ended; returns the answer's own problems. A second call does nothing. */
  finish(end: Ending): Problem[] {
    if (this.finished) return [];
    this.finished = true;
    const { judge, log } = this.deps;
    const { observed, route, problems } = this;
    const logged = (status: number, found: Problem[]) =>
      log.add(observed.method, this.path, status, this.startedAt, [...problems, ...found]);
    switch (end.kind) {
      case 'answered': {
        const found = judge.response(observed, route, problems, end.response);
        const refused = end.enforceable && this.enforce && found.length > 0;
        const status = end.response.status;
        const extra: Problem[] = [];
        if (end.unjudged) {
          judge.upstream(observed, route, problems, { ...end.unjudged, status }, true);
          extra.push({ side: 'response', ...end.unjudged });
        }
        this.logged = logged(refused ? 502 : status, [...found, ...extra]);
        return found;
      }
      case 'refused':
        judge.refused(observed, route, problems);
        logged(problems[0]?.status ?? 400, []);
        return [];
      case 'upstream': {
        const finding: Problem = { side: 'response', rule: end.rule, message: end.message };
        judge.upstream(observed, route, problems, end, false);
        logged(end.status, [finding]);
        return [finding];
      }
      case 'client':
        logged(end.status, [{ side: 'request', rule: 'request.incomplete', message: end.message }]);
        return [];
      case 'gone':
        return [];
    }
  }

  /** Enforce mode: a request or an answer that breaks the contract is refused. */
  get enforce(): boolean {
    return this.deps.mode === 'enforce';
  }

  /** A finding after the exchange was finished (an answer passed on, then cut): the same exchange, amended. */
  amend(rule: UpstreamRule, message: string): void {
    const status = this.logged?.status ?? 502;
    this.deps.judge.upstream(this.observed, this.route, this.problems, { rule, message, status }, true);
    this.logged?.violations.push({ side: 'response', rule, message });
  }

  /** The proxy's own answer in the document's error shape; past the head, the client's answer is reset. */
  reply(status: number, code: ErrorCode, message: string, violations: number, close = false): void {
    const answer = this.deps.answers.render(this.route.op, status, code, message, {
      headers: this.req.headers,
      address: this.req.socket.remoteAddress ?? '',
      connection: this.req.socket,
    });
    sendOwn(this.res, answer, violations, close);
  }

  /** The client's own fault ended the request: answered (when it still can be) and finished as such. */
  failByClient(status: number, code: ErrorCode, message: string): void {
    if (this.clientFault) return;
    this.clientFault = true;
    this.finish({ kind: 'client', status, message });
    if (this.req.socket?.writable) this.reply(status, code, message, 0, true);
    else this.res.destroy();
  }
}

/** Write an own answer on `res` (or reset it when its head left already). */
export function sendOwn(
  res: http.ServerResponse,
  answer: OwnAnswer,
  violations: number,
  close = false,
): void {
  if (res.headersSent) return resetClient(res);
  const headers = { ...answer.headers, 'Contract-Violations': String(violations) };
  if (close) res.shouldKeepAlive = false;
  res.writeHead(answer.status, close ? { ...headers, Connection: 'close' } : headers);
  res.end(answer.body);
}

/** End the client's answer with a TCP reset: a client must never read a cut answer as complete. */
export function resetClient(res: http.ServerResponse): void {
  const socket = res.socket as (Socket & { resetAndDestroy?: () => void }) | null;
  if (socket?.resetAndDestroy) socket.resetAndDestroy();
  else res.destroy();
}

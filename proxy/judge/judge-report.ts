/** The judge's observations as the runner's Report, so the runner's reporters (JUnit, JSON, HTML, HAR) format them. */
import type { LoadedSpec } from '../../spec/load';
import { evidenceOf } from '../../spec/report/aggregate';
import { computeCoverage } from '../../spec/report/coverage';
import { maskHeaderValues, maskUrlSecrets } from '../../spec/mask';
import type { Exchange, Report, RuleResult } from '../../spec/report/types';
import type { Problem } from './judge-request';

/** Every rule the judge applies, in report order (request side first). */
export const JUDGE_RULES = [
  'request.path',
  'request.method',
  'request.credentials',
  'request.parameters',
  'request.media-type',
  'request.body',
  'response.no-5xx',
  'response.documented-status',
  'response.json',
  'response.body-schema',
  'response.headers',
  'response.empty-body',
  'response.accepted-invalid',
  'errors.error-body',
  'ratelimit.values',
  'ratelimit.ietf-syntax',
  'ratelimit.ietf-quota',
  'ratelimit.ietf-retry-after',
  'assume.retry-after-seconds',
  'state.read-returns-item',
  'state.created-readable',
  'state.created-listed',
  'state.deleted-gone',
  'state.update-reflected',
  'upstream.reachable',
  'upstream.timeout',
  'upstream.complete',
  'upstream.body-size',
] as const;

/**
 * The rules of callbacks relayed by `--callbacks-relay` (proxy/callback-relay.ts), reported on the operations that
 * document callbacks (and on `(undocumented)` when a relay path nobody handed out was called).
 */
export const CALLBACK_JUDGE_RULES = [
  'callbacks.method',
  'callbacks.body-schema',
  'callbacks.undocumented',
] as const;

/** Longest body kept in a stored exchange (evidence is an excerpt; memory stays bounded). */
const BODY_EXCERPT = 4096;

/** Names of headers and query parameters that carry credentials under this document's security schemes. */
export function secretNames(spec: LoadedSpec): { headers: Set<string>; query: Set<string> } {
  const headers = new Set<string>();
  const query = new Set<string>();
  const schemes = (spec.document.components?.securitySchemes ?? {}) as Record<
    string,
    { type?: string; in?: string; name?: string }
  >;
  for (const s of Object.values(schemes)) {
    if (s.type !== 'apiKey' || !s.name) continue;
    if (s.in === 'header') headers.add(s.name.toLowerCase());
    if (s.in === 'query') query.add(s.name);
  }
  return { headers, query };
}

/** A copy of the exchange with every credential masked and bodies cut to an excerpt (`Infinity`: kept whole). */
export function maskExchange(
  ex: Exchange,
  secrets: { headers: Set<string>; query: Set<string> },
  excerpt = BODY_EXCERPT,
): Exchange {
  // A copy, not a slice: V8's slice of a long string keeps the whole string alive.
  const cut = (s: string | undefined) =>
    s && s.length > excerpt ? Buffer.from(`${s.slice(0, excerpt)}…`).toString() : s;
  const res = ex.response;
  return {
    ...ex,
    request: {
      ...ex.request,
      url: maskUrlSecrets(ex.request.url, secrets.query, []),
      headers: maskHeaderValues(ex.request.headers, secrets.headers, []),
      body: cut(ex.request.body),
    },
    response: res && {
      ...res,
      headers: maskHeaderValues(res.headers, new Set(), []),
      body: cut(res.body) ?? '',
      json: undefined,
    },
  };
}

/** One kept observation: the problem and the masked exchange it came from. */
export interface KeptProblem {
  problem: Problem;
  operationId?: string;
  exchange: Exchange;
}

/** One test case per (operation, rule) over the operations observed; failures carry their exchanges. */
export function buildJudgeReport(
  spec: LoadedSpec,
  input: {
    target: string;
    startedAt: number;
    now: number;
    observedOps: ReadonlySet<string>;
    pairs: readonly Exchange[];
    /** Exchanges per `operationId status` (pairs keeps one exchange of each). */
    counts?: ReadonlyMap<string, number>;
    kept: readonly KeptProblem[];
  },
): Report {
  const rules: RuleResult[] = [];
  // Operations observed, and those only an upstream failure or a refused request reached.
  const ops = [...input.observedOps, ...input.kept.map((k) => k.operationId ?? '(undocumented)')];
  for (const op of [...new Set(ops)].sort()) {
    const callbacks = op === '(undocumented)' || spec.byId.get(op)?.callbacks?.length;
    for (const rule of [...JUDGE_RULES, ...(callbacks ? CALLBACK_JUDGE_RULES : [])]) {
      const mine = input.kept.filter(
        (k) => (k.operationId ?? '(undocumented)') === op && k.problem.rule === rule,
      );
      if (op === '(undocumented)' && mine.length === 0) continue;
      rules.push({
        id: `${rule} ${op}`,
        title: `${rule} on ${op}`,
        kind: 'contract',
        source: 'proxy',
        status: mine.length > 0 ? 'fail' : 'pass',
        evidence: mine
          .slice(0, 5)
          .map((k) =>
            evidenceOf({ ruleId: rule, outcome: 'fail', problem: k.problem.message, exchange: k.exchange }),
          ),
      });
    }
  }
  // Request-side rules judge the client, not the server: reported apart, never a failure (issue 31).
  const server = rules.filter((r) => !r.id.startsWith('request.'));
  const clientRequests = rules.filter((r) => r.id.startsWith('request.') && r.status === 'fail');
  const fail = server.filter((r) => r.status === 'fail').length;
  return {
    target: input.target,
    startedAt: new Date(input.startedAt).toISOString(),
    durationMs: input.now - input.startedAt,
    summary: { pass: server.length - fail, fail, skip: 0 },
    rules: server,
    coverage: computeCoverage(spec, input.pairs, input.counts),
    clientRequests,
  };
}

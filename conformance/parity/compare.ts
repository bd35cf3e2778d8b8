/**
 * Pure: where two servers that got the same cases differ, and which side the document is on. Two levels:
 *
 * - rules: the same rule (a lifecycle, a chain of writes and reads, a body case, an auth case) passed on one
 *   side and failed on the other: the side that passed is right by the document. This is where the state a
 *   sequence leaves shows (a delete that does not delete, a refused create that was stored, an id reused).
 * - exchanges: the same request answered with another status, a body only one side's answer fits, or other
 *   rate-limit headers; each answer judged by the document's response rules (spec/http/response-checks.ts).
 *
 * A difference is `a-right` or `b-right` when one side breaks no rule, `both-wrong` when both break one (each
 * its own way), `both-allowed` when neither does (the document permits both answers, e.g. two documented
 * statuses).
 */
import { matchBasePath } from '../../spec/base-path';
import { coerceParam, type LoadedSpec } from '../../spec/load';
import { checkResponses } from '../../spec/http/response-checks';
import type { Exchange, Report, RuleResult } from '../types';
import { alignExchanges } from './align';

export type Verdict = 'a-right' | 'b-right' | 'both-wrong' | 'both-allowed';

/** One side of a difference: what it answered and what the document says about it. */
export interface Side {
  /** `201`, `fail`, `x-ratelimit-limit, x-ratelimit-remaining`. */
  shown: string;
  /** The rules this side breaks here (empty: right by the document). */
  problems: string[];
}

export interface Difference {
  kind: 'rule' | 'status' | 'shape' | 'rate-limit-headers';
  /** A rule id, or `METHOD url` of the request. */
  where: string;
  a: Side;
  b: Side;
  verdict: Verdict;
}

export interface ParityResult {
  a: string;
  b: string;
  /** Requests asked of both, and of one side only. */
  paired: number;
  onlyA: number;
  onlyB: number;
  differences: Difference[];
}

const RATE_HEADERS = /^(x-ratelimit-|ratelimit|retry-after$)/;

const verdictOf = (a: readonly string[], b: readonly string[]): Verdict =>
  a.length === 0 && b.length === 0
    ? 'both-allowed'
    : a.length === 0
      ? 'a-right'
      : b.length === 0
        ? 'b-right'
        : 'both-wrong';

/** Whether the document accepts the request's body and query (its compiled validators); undefined: no body rule. */
function requestValid(spec: LoadedSpec, e: Exchange): boolean | undefined {
  const op = e.operationId ? spec.byId.get(e.operationId) : undefined;
  if (!op) return undefined;
  const [pathname = '', search = ''] = e.request.url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?');
  const match = op.pathPattern.exec(matchBasePath(pathname, spec.basePath) ?? pathname);
  for (const p of op.pathParamSpecs) {
    const raw = match?.[op.pathParams.indexOf(p.name) + 1];
    let value: string | undefined;
    try {
      value = raw === undefined ? undefined : decodeURIComponent(raw);
    } catch {
      return false; // a malformed escape is no valid value
    }
    if (value !== undefined && !p.validate(coerceParam(p.schema, value))) return false;
  }
  const query = new URLSearchParams(search);
  for (const p of op.queryParams) {
    const raw = query.get(p.name);
    if (raw !== null && !p.validate(coerceParam(p.schema, raw))) return false;
  }
  if (!op.requestBody || op.requestBody.kind !== 'json' || !e.request.body)
    return op.requestBody ? undefined : true;
  try {
    return op.requestBody.validate(JSON.parse(e.request.body)) === true;
  } catch {
    return false;
  }
}

/** Rules a recorded answer breaks, as `rule: problem` lines; a 2xx to a request the document refuses too. */
function problemsOf(spec: LoadedSpec, e: Exchange): string[] {
  const out = checkResponses(spec, [e])
    .filter((f) => f.outcome === 'fail')
    .map((f) => `${f.ruleId}: ${f.problem ?? ''}`);
  const status = e.response?.status ?? 0;
  const valid = e.outsideContract ? undefined : requestValid(spec, e);
  if (valid === false && status >= 200 && status < 300)
    out.push(`response.accepted-invalid: answered ${status} to a request the document refuses`);
  if (valid === true && status === 400)
    out.push('response.refused-valid: answered 400 to a request the document accepts');
  return out;
}

function ruleProblems(r: RuleResult | undefined): string[] {
  if (!r || r.status !== 'fail') return [];
  return r.evidence.map((e) => `${r.id}: ${e.problem}`);
}

function ruleDifferences(a: Report, b: Report): Difference[] {
  const other = new Map(b.rules.map((r) => [r.id, r]));
  const out: Difference[] = [];
  for (const ra of a.rules) {
    const rb = other.get(ra.id);
    // A skip on either side is not a difference of behaviour (a rule one server could not be asked).
    if (!rb || ra.status === 'skip' || rb.status === 'skip' || ra.status === rb.status) continue;
    const pa = ruleProblems(ra);
    const pb = ruleProblems(rb);
    out.push({
      kind: 'rule',
      where: ra.id,
      a: { shown: ra.status, problems: pa },
      b: { shown: rb.status, problems: pb },
      verdict: verdictOf(pa, pb),
    });
  }
  return out;
}

const rateNames = (e: Exchange) =>
  Object.keys(e.response?.headers ?? {})
    .map((h) => h.toLowerCase())
    .filter((h) => RATE_HEADERS.test(h))
    .sort()
    .join(', ');

function exchangeDifferences(spec: LoadedSpec, a: Exchange, b: Exchange): Difference[] {
  const ra = a.response;
  const rb = b.response;
  const where = `${a.request.method} ${a.request.url.replace(/^[a-z]+:\/\/[^/]+/i, '')}`;
  const pa = problemsOf(spec, a);
  const pb = problemsOf(spec, b);
  const diff = (kind: Difference['kind'], shownA: string, shownB: string, fa = pa, fb = pb): Difference => ({
    kind,
    where,
    a: { shown: shownA, problems: fa },
    b: { shown: shownB, problems: fb },
    verdict: verdictOf(fa, fb),
  });
  if (!ra || !rb)
    return ra === rb
      ? []
      : [
          diff(
            'status',
            ra ? String(ra.status) : (a.error ?? 'no answer'),
            rb ? String(rb.status) : (b.error ?? 'no answer'),
          ),
        ];
  const out: Difference[] = [];
  if (ra.status !== rb.status) out.push(diff('status', String(ra.status), String(rb.status)));
  else {
    // Same status: the answers differ in shape when the document accepts one and not the other.
    const shape = (p: string[]) =>
      p.filter((x) => /^(response\.(body-schema|json)|errors\.error-body)/.test(x));
    const sa = shape(pa);
    const sb = shape(pb);
    if ((sa.length === 0) !== (sb.length === 0))
      out.push(
        diff('shape', sa.length ? 'does not fit' : 'fits', sb.length ? 'does not fit' : 'fits', sa, sb),
      );
  }
  const ha = rateNames(a);
  const hb = rateNames(b);
  if (ha !== hb) {
    const rate = (p: string[]) => p.filter((x) => /^(response\.headers|ratelimit\.)/.test(x));
    out.push(diff('rate-limit-headers', ha || 'none', hb || 'none', rate(pa), rate(pb)));
  }
  return out;
}

/** Every difference between two runs of the same cases. */
export function compareRuns(
  spec: LoadedSpec,
  a: { report: Report; exchanges: readonly Exchange[] },
  b: { report: Report; exchanges: readonly Exchange[] },
): ParityResult {
  const aligned = alignExchanges(a.exchanges, b.exchanges);
  const differences = ruleDifferences(a.report, b.report);
  let paired = 0;
  let onlyA = 0;
  let onlyB = 0;
  for (const pair of aligned) {
    if (pair.a && pair.b) {
      paired++;
      differences.push(...exchangeDifferences(spec, pair.a, pair.b));
    } else if (pair.a) onlyA++;
    else onlyB++;
  }
  return { a: a.report.target, b: b.report.target, paired, onlyA, onlyB, differences };
}

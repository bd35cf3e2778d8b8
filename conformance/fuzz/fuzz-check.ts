/**
 * The fuzz phase of one operation (`--fuzz`): every case of every phase sent, judged by what the document's
 * validator says of the body (valid: a documented 2xx; invalid: a documented refusal, never a 5xx), the first
 * failure of each phase shrunk to a minimal body, reported with a curl command and saved for `--replay`.
 */
import { rejectStatuses, successStatuses } from '../../spec/statuses';
import type { OperationSpec } from '../../spec/load';
import { pathFor, type BodyTarget } from '../build/bodies';
import { bodyRequest, jsonMediaType } from '../build/requests';
import type { Resource } from '../../spec/resources';
import type { RuleOf } from '../rules';
import type { Check, RunContext } from '../send/check-context';
import { fail, pass, skip } from '../send/check-context';
import type { Exchange, Finding } from '../types';
import { fuzzCases, PHASES, type FuzzCase, type FuzzPhase } from './cases';
import { withRunPrefix } from './run-prefix';
import { curlFor } from './curl';
import { saveFailure } from './failures';
import { shrink } from './shrink';
import { marked, noTrace, noTraceRuleId } from './no-trace';
import { opRandom } from './op-seed';

/** What the CLI decides for the whole phase. */
export interface FuzzSettings {
  maxExamples: number;
  /** Epoch ms after which no more case is sent (`--fuzz-time`). */
  deadline: number;
  /** Where failures are saved; null: not saved. */
  failuresDir: string | null;
  target: string;
  seed: number;
}

export const fuzzRuleId = (op: OperationSpec, phase: FuzzPhase): `fuzz.${string}` =>
  `fuzz.${op.operationId}.${phase}`;

/** One rule per phase of an operation with a JSON body; a create also `no-trace` (a refused create stores nothing). */
export function fuzzRules(op: OperationSpec, isCreate = false): RuleOf<`fuzz.${string}`>[] {
  if (op.requestBody?.kind !== 'json') return [];
  const source = `${op.method.toUpperCase()} ${op.path}`;
  const rule = (id: `fuzz.${string}`, title: string): RuleOf<`fuzz.${string}`> => ({
    id,
    title,
    source,
    kind: 'contract',
    tags: ['fuzz', 'generated'],
  });
  const rules = PHASES.map((phase) =>
    rule(fuzzRuleId(op, phase), `${op.operationId}: ${phase} (--fuzz) accepted when valid, refused when not`),
  );
  if (isCreate)
    rules.push(rule(noTraceRuleId(op), `${op.operationId}: a refused create leaves no trace in the list`));
  return rules;
}

type Verdict = { ok: true; exchange: Exchange } | { ok: false; problem: string; exchange?: Exchange };

/** Send one body and judge it by the document: valid -> a documented 2xx; invalid -> a documented 4xx. */
async function judgeCase(
  op: OperationSpec,
  target: BodyTarget,
  body: unknown,
  ctx: RunContext,
): Promise<Verdict> {
  const valid = op.requestBody?.validate(body) === true;
  // What a server may store from it carries the run prefix (the case itself stays as drawn from the seed).
  const sent = withRunPrefix(
    valid ? target.adjust(body) : body,
    op.requestBody?.schema,
    ctx.runPrefix,
    op.requestBody?.validate,
  );
  const result = await ctx.client.send(bodyRequest(op, target.path, { json: sent }));
  if (result.kind !== 'response')
    return {
      ok: false,
      problem: result.kind === 'error' ? (result.exchange.error ?? 'no response') : result.reason,
    };
  const { status } = result.response;
  const wanted = valid ? successStatuses(op).map(Number) : refusals(op);
  if (wanted.includes(status)) return { ok: true, exchange: result.exchange };
  const expected = valid
    ? `a valid body: expected ${wanted.join(' or ')}`
    : `an invalid body: expected ${wanted.join(' or ')}`;
  return { ok: false, problem: `${expected}, got ${status}`, exchange: result.exchange };
}

/** The statuses that refuse an invalid body: the documented 4xx (400 and 422 where none is). */
function refusals(op: OperationSpec): number[] {
  const documented = [...op.responses.keys()].filter((s) => /^4\d\d$/.test(s)).map(Number);
  const own = documented.filter((s) => s !== 401 && s !== 403 && s !== 404 && s !== 429);
  return own.length > 0 ? [...new Set([...rejectStatuses(op), ...own])] : [400, 422];
}

async function reportFailure(
  op: OperationSpec,
  target: BodyTarget,
  c: FuzzCase,
  first: Extract<Verdict, { ok: false }>,
  ctx: RunContext,
  s: FuzzSettings,
): Promise<Finding> {
  const rule = fuzzRuleId(op, c.phase);
  const valid = op.requestBody?.validate(c.body) === true;
  const body =
    c.body && typeof c.body === 'object' && !Array.isArray(c.body)
      ? (c.body as Record<string, unknown>)
      : null;
  // Shrunk: a smaller body the document judges the same way, which the server still gets wrong.
  const small = body
    ? await shrink(body, async (candidate) => {
        if ((op.requestBody?.validate(candidate) === true) !== valid) return false;
        return !(await judgeCase(op, target, candidate, ctx)).ok;
      })
    : { body: c.body, attempts: 0 };
  const sent = valid ? target.adjust(small.body) : small.body;
  const text = JSON.stringify(sent);
  const curl = curlFor({
    method: op.method.toUpperCase(),
    target: s.target,
    path: target.path,
    contentType: jsonMediaType(op),
    body: text,
  });
  const saved = s.failuresDir
    ? saveFailure(s.failuresDir, {
        rule,
        operationId: op.operationId,
        method: op.method.toUpperCase(),
        template: op.path,
        body: small.body,
        expect: valid ? 'accept' : 'reject',
        statuses: valid ? successStatuses(op).map(Number) : refusals(op),
        label: c.label,
        seed: s.seed,
        curl,
        found: new Date().toISOString(),
      })
    : undefined;
  const where = saved ? `; saved in ${saved} (--replay)` : '';
  return fail(
    rule,
    `${c.label}: ${first.problem}; shrunk to ${text}${where}\n${curl}`,
    first.exchange,
    target.steps,
  );
}

async function runPhase(
  op: OperationSpec,
  target: BodyTarget,
  cases: FuzzCase[],
  ctx: RunContext,
  s: FuzzSettings,
  markers: string[] | null,
): Promise<Finding> {
  const rule = fuzzRuleId(op, cases[0]?.phase ?? 'examples');
  let last: Exchange | undefined;
  let sent = 0;
  for (const original of cases) {
    if (Date.now() > s.deadline) break;
    const marker = `${ctx.runPrefix}-trace-${markers?.length ?? 0}`;
    const traced =
      markers && op.requestBody?.validate(original.body) === false ? marked(op, original, marker) : undefined;
    if (traced) markers?.push(marker);
    const c = traced ?? original;
    const verdict = await judgeCase(op, target, c.body, ctx);
    sent += 1;
    // Shrunk from the case as generated (a marker is the run's own): the same seed shrinks to the same body.
    if (!verdict.ok) return reportFailure(op, target, original, verdict, ctx, s);
    last = verdict.exchange;
  }
  if (sent === 0)
    return skip(rule, Date.now() > s.deadline ? '--fuzz-time spent before this phase' : 'no case');
  return pass(rule, last);
}

/** The check of `op`'s fuzz phases; `create`: the resource it creates into, for `no-trace`. */
export function fuzzCheck(op: OperationSpec, s: FuzzSettings, create?: Resource): Check {
  const rules = fuzzRules(op, create !== undefined).map((r) => r.id);
  return {
    name: `${op.operationId} fuzz`,
    rules,
    async run(ctx) {
      if (ctx.readOnly)
        return rules.map((r) => skip(r, `--read-only: ${op.method.toUpperCase()} is not sent`));
      const target = await pathFor(op, ctx);
      if ('skip' in target) return rules.map((r) => skip(r, target.skip));
      // Its own stream: the same seed draws the same cases however the checks interleave (real HTTP timings vary).
      const all = fuzzCases(ctx.spec, op, opRandom(s.seed, op), `fuzz-${s.seed}`, s.maxExamples);
      const findings: Finding[] = [];
      const markers: string[] | null = create ? [] : null;
      for (const phase of PHASES) {
        const cases = all.filter((c) => c.phase === phase);
        findings.push(
          cases.length === 0
            ? skip(
                fuzzRuleId(op, phase),
                phase === 'examples' ? 'the document gives no request example' : 'no case',
              )
            : await runPhase(op, target, cases, ctx, s, markers),
        );
      }
      if (create) findings.push(await noTrace(op, create, markers ?? [], ctx));
      return findings;
    },
  };
}

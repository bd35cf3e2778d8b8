/**
 * One phase of one operation: send its cases, and for each failure shrink it, print its curl and save it. One
 * finding per failure (the evidence names the case), or one pass naming how many cases were sent.
 */
import type { OperationSpec } from '../../spec/load';
import { fail, pass, skip, type RunContext } from '../execute/check-context';
import type { Exchange, Finding } from '../types';
import { expectationOf, type FuzzCase, type FuzzRequest } from './cases';
import { curlOf } from './curl';
import { saveFailure } from './failures';
import { problemOf, sendCase, type CaseTarget } from './send';
import { shrink } from './shrink';
import { getAt } from './json-path';
import type { FuzzSettings } from './settings';

/** Failures shrunk per phase (each costs up to SHRINK_BUDGET requests); the rest are reported as found. */
const SHRUNK_PER_PHASE = 3;
const SHRINK_BUDGET = 40;
const MAX_REPORTED = 5;

export interface PhaseRun {
  findings: Finding[];
  /** Every answered exchange (for --max-response-time). */
  exchanges: Exchange[];
  /** Cases the server refused as it should, with their bodies (a refused create must leave no trace). */
  refused: FuzzCase[];
}

interface Failure {
  c: FuzzCase;
  problem: string;
  exchange: Exchange;
}

/** Run `cases` (all of one phase) against `target`; `rule` is the phase's rule. */
export async function runPhase(
  ctx: RunContext,
  op: OperationSpec,
  target: CaseTarget,
  rule: string,
  cases: FuzzCase[],
  settings: FuzzSettings,
): Promise<PhaseRun> {
  const out: PhaseRun = { findings: [], exchanges: [], refused: [] };
  const failures: Failure[] = [];
  let skipped = '';
  for (const c of cases) {
    if (settings.timeUp()) {
      skipped ||= `--fuzz-time ${settings.fuzzTimeS ?? ''}s ran out`;
      break;
    }
    const result = await sendCase(ctx, op, target, c.request);
    if (result.kind === 'skipped') {
      skipped ||= result.reason;
      continue;
    }
    out.exchanges.push(result.exchange);
    const problem = problemOf(op, c, result);
    if (problem) failures.push({ c, problem, exchange: result.exchange });
    else if (c.expect === 'reject') out.refused.push(c);
  }
  for (const [i, f] of failures.slice(0, MAX_REPORTED).entries())
    out.findings.push(
      i < SHRUNK_PER_PHASE
        ? await shrunkFinding(ctx, op, target, rule, f, settings)
        : fail(rule, `${f.c.label}: ${f.problem}`, f.exchange),
    );
  if (failures.length === 0 && out.exchanges.length > 0)
    out.findings.push(pass(rule, out.exchanges[out.exchanges.length - 1]));
  if (skipped && out.exchanges.length < cases.length)
    out.findings.push(skip(rule, `${cases.length - out.exchanges.length} cases not sent: ${skipped}`));
  return out;
}

async function shrunkFinding(
  ctx: RunContext,
  op: OperationSpec,
  target: CaseTarget,
  rule: string,
  f: Failure,
  settings: FuzzSettings,
): Promise<Finding> {
  let last = f;
  const stillFails = async (request: FuzzRequest): Promise<boolean> => {
    const result = await sendCase(ctx, op, target, request);
    const problem = result.kind === 'skipped' ? undefined : problemOf(op, f.c, result);
    if (problem && result.kind !== 'skipped')
      last = { c: { ...f.c, request }, problem, exchange: result.exchange };
    return problem !== undefined;
  };
  const pinned = (request: FuzzRequest) =>
    (target.pinned ?? []).every((p) => getAt(request.body, p) === getAt(f.c.request.body, p));
  const keeps = (request: FuzzRequest) => expectationOf(op, request) === f.c.expect && pinned(request);
  const { tries } = await shrink(f.c.request, keeps, stillFails, settings.timeUp() ? 0 : SHRINK_BUDGET);
  const curl = curlOf(last.exchange.request);
  let saved: string;
  try {
    saved = await saveFailure(settings.failuresDir, {
      version: 1,
      operationId: op.operationId,
      phase: f.c.phase,
      label: f.c.label,
      expect: f.c.expect,
      request: last.c.request,
      problem: last.problem,
      curl,
      seed: settings.seed,
      savedAt: new Date().toISOString(),
    });
  } catch (error) {
    saved = `not saved: ${(error as Error).message}`;
  }
  const minimal = describe(last.c.request);
  return fail(
    rule,
    `${f.c.label}: ${last.problem}; shrunk in ${tries} requests to ${minimal.slice(0, 300)}; ` +
      `saved ${saved}; replay: ${curl}`,
    last.exchange,
  );
}

/** A request as the evidence shows it: its body (or raw text), its query and its item id when they are set. */
function describe(request: FuzzRequest): string {
  const parts: string[] = [];
  if (request.pathValue !== undefined) parts.push(`id ${JSON.stringify(request.pathValue)}`);
  if (request.query) parts.push(`query ${new URLSearchParams(request.query).toString()}`);
  if (request.raw !== undefined) parts.push(`raw ${JSON.stringify(request.raw)}`);
  else if (request.body !== undefined) parts.push(`body ${JSON.stringify(request.body)}`);
  return parts.join(', ') || 'no body';
}

/**
 * `--fuzz`: for each selected operation with a JSON body, query parameters or an integer item id, a check that
 * runs its phases (documented examples, boundaries, seeded random cases), then whether a refused create left a
 * trace and whether every answer came within `--max-response-time`. One rule per operation and phase.
 */
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import type { ResourceModel } from '../../spec/resources';
import { fail, pass, seededRandom, skip, type Check, type RunContext } from '../execute/check-context';
import { isWrite } from '../execute/client';
import { pathFor } from '../generate/bodies';
import type { Exchange, Finding, Rule } from '../types';
import { boundaryCases, type CaseSource, type FuzzCase } from './cases';
import { exampleCases, requestExamples } from './examples';
import { noTrace } from './no-trace';
import { chainWalk } from './chains';
import { runPhase } from './phase';
import { CASE_PREFIX, fuzzRuleId, type FuzzRuleKind } from './plan-ids';
import { randomCases } from './random';
import type { FuzzSettings } from './settings';
import type { JsonPath } from './json-path';

const TITLES: Record<FuzzRuleKind, string> = {
  examples: 'accepts every documented request example as is',
  boundaries: 'accepts the values on the valid side of each constraint and refuses those just past it',
  random: 'accepts seeded random valid requests and refuses random invalid ones',
  'no-trace': 'a refused create leaves no trace in the list',
  chains:
    'holds in a random walk over its resource: available after create, an update read back, a refused write ' +
    'changes nothing, gone after delete, ids never reused, writes without a valid credential refused',
  'response-time': 'answers every fuzz case within --max-response-time',
};

/** Steps of a chain: --max-examples, within these bounds. */
const CHAIN_MIN = 5;
const CHAIN_MAX = 30;

const itemParamOf = (op: OperationSpec) =>
  op.pathParamSpecs.length === 1 ? op.pathParamSpecs[0] : undefined;

/** A stable seed per operation: the cases of one do not depend on the order the checks run in. */
function opSeed(seed: number, op: OperationSpec): number {
  let h = seed >>> 0;
  for (const ch of op.operationId) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

function sourceFor(
  op: OperationSpec,
  seed: number,
  adjust: (b: unknown) => unknown,
  pinned?: JsonPath[],
): CaseSource {
  const random = seededRandom(opSeed(seed, op));
  return { random, prefix: `${CASE_PREFIX}-${op.operationId}`, adjust, itemParam: itemParamOf(op), pinned };
}

/** An update that names its item in the body (`PUT /pet` with the id): that id is not the case's to change. */
function pinnedOf(model: ResourceModel, op: OperationSpec): JsonPath[] | undefined {
  const binding = model.byOperation.get(op.operationId);
  const { idField, envelope } = binding?.resource ?? {};
  if (binding?.action !== 'update' || !idField) return undefined;
  return [envelope ? [envelope, idField] : [idField]];
}

/** The fuzz rule kinds `op` gets (none: the operation is not fuzzed). */
function kindsOf(
  spec: LoadedSpec,
  model: ResourceModel,
  op: OperationSpec,
  s: FuzzSettings,
  readOnly: boolean,
): FuzzRuleKind[] {
  if (op.requestBody && op.requestBody.kind !== 'json') return [];
  const source = sourceFor(op, 0, (b) => b);
  const kinds: FuzzRuleKind[] = [];
  if (requestExamples(spec, op).length > 0) kinds.push('examples');
  if (boundaryCases(op, source).length > 0) kinds.push('boundaries');
  if (s.maxExamples > 0 && randomCases(op, source, 1).length > 0) kinds.push('random');
  if (kinds.length === 0) return [];
  const binding = model.byOperation.get(op.operationId);
  if (binding?.action === 'create' && binding.resource.operations.list) kinds.push('no-trace');
  if (binding?.action === 'create' && binding.resource.operations.read && !readOnly) kinds.push('chains');
  if (s.maxResponseTimeMs !== undefined) kinds.push('response-time');
  return kinds;
}

/** The fuzz rules and checks of the selected operations (`selected` null: all; `readOnly`: GET and HEAD only). */
export function fuzzPlan(
  spec: LoadedSpec,
  model: ResourceModel,
  selected: ReadonlySet<string> | null,
  readOnly: boolean,
  settings: FuzzSettings,
): { rules: Rule[]; checks: Check[] } {
  const rules: Rule[] = [];
  const checks: Check[] = [];
  for (const op of spec.operations) {
    if (selected && !selected.has(op.operationId)) continue;
    if (readOnly && isWrite(op.method) && op.method !== 'head') continue;
    const kinds = kindsOf(spec, model, op, settings, readOnly);
    if (kinds.length === 0) continue;
    const source = `${op.method.toUpperCase()} ${op.path}`;
    for (const kind of kinds)
      rules.push({
        id: fuzzRuleId(op, kind),
        title: `${op.operationId} ${TITLES[kind]}`,
        source,
        kind: 'contract',
        tags: ['fuzz', kind],
      });
    checks.push(fuzzCheck(spec, op, kinds, settings));
  }
  return { rules, checks };
}

function fuzzCheck(
  spec: LoadedSpec,
  op: OperationSpec,
  kinds: FuzzRuleKind[],
  settings: FuzzSettings,
): Check {
  return {
    name: `fuzz ${op.operationId}`,
    rules: kinds.map((k) => fuzzRuleId(op, k)),
    async run(ctx: RunContext): Promise<Finding[]> {
      const found = await pathFor(op, ctx);
      if ('skip' in found) return kinds.map((k) => skip(fuzzRuleId(op, k), found.skip));
      const pinned = pinnedOf(ctx.model, op);
      const target = { path: found.path, itemParam: itemParamOf(op)?.name, pinned };
      const source = sourceFor(op, settings.seed, found.adjust, pinned);
      const phases: Array<[FuzzRuleKind, () => FuzzCase[]]> = [
        ['examples', () => exampleCases(spec, op, source)],
        ['boundaries', () => boundaryCases(op, source)],
        ['random', () => randomCases(op, source, settings.maxExamples)],
      ];
      const findings: Finding[] = [];
      const exchanges: Exchange[] = [];
      const refused: FuzzCase[] = [];
      const binding = ctx.model.byOperation.get(op.operationId);
      // The chain first, while the lists are short: a stored item must show on the first page.
      if (kinds.includes('chains') && binding) {
        const length = Math.max(CHAIN_MIN, Math.min(CHAIN_MAX, settings.maxExamples));
        const random = seededRandom(opSeed(settings.seed + 1, op));
        findings.push(await chainWalk(ctx, binding.resource, fuzzRuleId(op, 'chains'), random, length));
      }
      for (const [kind, cases] of phases) {
        if (!kinds.includes(kind)) continue;
        const run = await runPhase(ctx, op, target, fuzzRuleId(op, kind), cases(), settings);
        findings.push(...run.findings);
        exchanges.push(...run.exchanges);
        refused.push(...run.refused);
      }
      if (kinds.includes('no-trace') && binding)
        findings.push(await noTrace(ctx, binding.resource, fuzzRuleId(op, 'no-trace'), refused));
      if (kinds.includes('response-time'))
        findings.push(...responseTimes(op, exchanges, settings.maxResponseTimeMs ?? Infinity));
      return findings;
    },
  };
}

function responseTimes(op: OperationSpec, exchanges: Exchange[], limit: number): Finding[] {
  const rule = fuzzRuleId(op, 'response-time');
  const slow = exchanges.filter((e) => e.receivedAt - (e.sentAt ?? e.receivedAt) > limit);
  if (exchanges.length === 0) return [skip(rule, 'no case was answered')];
  if (slow.length === 0) return [pass(rule)];
  return slow
    .slice(0, 5)
    .map((e) =>
      fail(rule, `answered in ${e.receivedAt - (e.sentAt ?? e.receivedAt)} ms, over ${limit} ms`, e),
    );
}

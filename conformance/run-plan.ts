/**
 * The plan of a run, decided before anything is sent: which rules are listed and selected, which are required,
 * and which checks run in which phase. Pure (the document, the options and the rules and checks the phases
 * generated in; no server, no clock), so that what a run will do is tested without one; run.ts loads the inputs,
 * asks for the plan, then executes it.
 */
import type { LoadedSpec } from '../spec/load';
import { RESPONSE_RULES } from '../spec/http/response-checks';
import { CHECKS } from './probes';
import { CALLBACK_RULES } from './callbacks/check';
import { scenarioCheck } from './lifecycle/run-scenario';
import type { Scenario } from './load/scenario-schema';
import { selectRules } from './load/select-rules';
import type { Check } from './send/check-context';
import { IETF_RULES } from './verdict/ratelimit-ietf';
import { responseTimeRule } from './verdict/response-time';
import { catalogueFor, OPT_IN_TAGS, withheldRuleProblem } from './rules';
import type { ConformanceOptions, Rule } from './types';

/** The rules and checks a phase of the run brings (generated, --fuzz, --replay). */
export interface Phase {
  rules: Rule[];
  checks: Check[];
}

export interface PlanInputs {
  spec: LoadedSpec;
  /** The operations `--operation`, `--tag` and `--path` keep (null: all). */
  chosen: ReadonlySet<string> | null;
  generated: Phase;
  fuzz: Phase;
  /** `--replay`: the saved failures, sent and nothing else (`bad`: the files that are not one). */
  replay?: Phase & { bad: string[] };
  scenarios: { rules: Rule[]; scenarios: Scenario[] };
}

/** The checks in the order they run: `first` one by one, `queue` side by side, `last` one by one. */
export interface Phases {
  first: Check[];
  queue: Check[];
  last: Check[];
}

export interface RunPlan {
  /** The selected rules, in the listed order: the report's rows. */
  rules: Rule[];
  /** `--require`: the ids of the selected rules its terms name. */
  required: string[];
  phases: Phases;
}

export type PlanResult = { ok: true; plan: RunPlan } | { ok: false; error: string };

/** Pure: the plan of a run on `inputs` with `options`, or why it cannot run (exit 2). */
export function planRun(options: ConformanceOptions, inputs: PlanInputs): PlanResult {
  const listed = listedRules(options, inputs);
  if (!listed.ok) return listed;
  // A required opt-in tag (--require quota) is included: a rule that must run is selected.
  const optInRequired = (options.require ?? []).filter((t) => OPT_IN_TAGS.includes(t));
  const selection = { ...options, include: [...(options.include ?? []), ...optInRequired] };
  const selected = inputs.replay
    ? ({ ok: true, rules: inputs.replay.rules } as const)
    : selectRules(listed.rules, selection);
  if (!selected.ok) return selected;
  if (selected.rules.length === 0)
    return { ok: false, error: 'the filters select no rule (see --include, --exclude, --rule and --help)' };
  const required = requiredRules(selected.rules, options.require ?? []);
  if (!required.ok) return required;
  const kindOf = (id: string) => listed.rules.find((r) => r.id === id)?.kind ?? 'contract';
  const checks = checksFor(selected.rules, [
    ...(inputs.replay ? inputs.replay.checks : inputs.generated.checks),
    ...inputs.fuzz.checks,
    ...inputs.scenarios.scenarios
      // A filtered run sends the scenarios of its selected rules only.
      .filter((s) => !inputs.chosen || selected.rules.some((r) => r.id === s.rule))
      .map((s) => scenarioCheck(s, kindOf(s.rule))),
  ]);
  const phases = {
    first: checks.filter((c) => c.phase === 'first'),
    queue: checks.filter((c) => c.phase === undefined),
    last: checks.filter((c) => c.phase === 'last'),
  };
  return { ok: true, plan: { rules: selected.rules, required: required.ids, phases } };
}

/** Every rule the run lists before the filters: the catalogue of its operations, the phases', the scenarios'. */
function listedRules(
  options: ConformanceOptions,
  inputs: PlanInputs,
): { ok: true; rules: Rule[] } | { ok: false; error: string } {
  const { spec, chosen } = inputs;
  const operationIds = new Set(spec.byId.keys());
  // A filtered run lists the catalogue's rules of its operations only (those the document-wide checks hold stay).
  const catalogue = withoutCallbackRules(catalogueFor(chosen ?? operationIds).rules, spec, chosen);
  const withheld = (options.rules ?? []).map((id) => withheldRuleProblem(id, operationIds)).find(Boolean);
  if (withheld) return { ok: false, error: withheld };
  const callbackRule = (options.rules ?? []).find(
    (id) => (CALLBACK_RULES as readonly string[]).includes(id) && !catalogue.some((r) => r.id === id),
  );
  if (callbackRule)
    return {
      ok: false,
      error: `rule "${callbackRule}" needs an operation that documents callbacks, which the ${chosen ? 'selection' : 'document'} lacks`,
    };
  if (inputs.replay?.bad.length)
    return { ok: false, error: `--replay: not a saved failure: ${inputs.replay.bad.join(', ')}` };
  // --replay sends the saved failures and nothing else.
  if (inputs.replay) return { ok: true, rules: inputs.replay.rules };
  const timing = options.maxResponseTimeMs === undefined ? [] : [responseTimeRule(options.maxResponseTimeMs)];
  const rules = [
    ...catalogue,
    ...inputs.generated.rules,
    ...inputs.fuzz.rules,
    ...inputs.scenarios.rules,
    ...timing,
  ];
  return { ok: true, rules };
}

/** The callback rules only where a selected operation documents callbacks (like a document's own rules). */
function withoutCallbackRules(rules: Rule[], spec: LoadedSpec, ids: ReadonlySet<string> | null): Rule[] {
  const has = spec.operations.some((op) => op.callbacks?.length && (!ids || ids.has(op.operationId)));
  return has ? rules : rules.filter((r) => !r.tags.includes('callbacks'));
}

/** The ids of the selected rules each `--require` term names (a tag, an id, or an id glob with `*`). */
function requiredRules(
  rules: readonly Rule[],
  terms: readonly string[],
): { ok: true; ids: string[] } | { ok: false; error: string } {
  const ids = new Set<string>();
  for (const term of terms) {
    const glob = new RegExp(`^${term.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    const matched = rules.filter((r) => r.tags.includes(term) || glob.test(r.id));
    if (matched.length === 0)
      return {
        ok: false,
        error: `--require ${term}: no selected rule has this id or tag (see --help; --exclude and --rule narrow what is selected)`,
      };
    for (const r of matched) ids.add(r.id);
  }
  return { ok: true, ids: [...ids] };
}

/** Checks with at least one selected rule; response rules need traffic, so they pull in the ordinary checks. */
function checksFor(selected: readonly Rule[], generated: Check[]): Check[] {
  const ids = new Set(selected.map((r) => r.id));
  const wantsTraffic = [...RESPONSE_RULES, ...IETF_RULES].some((id) => ids.has(id));
  return [...CHECKS, ...generated].filter(
    (c) => c.rules.some((id) => ids.has(id)) || (wantsTraffic && c.phase !== 'last'),
  );
}

import { loadSpecOrThrow, type LoadedSpec } from '../spec/load';
import { inferResources, type ResourceModel } from '../spec/resources';
import { generateRules } from './generated-rules';
import { planRun, type PlanInputs } from './run-plan';
import type { ConformanceOptions } from './types';
import type { Check } from './send/check-context';

// The plan of a run on the shipped document, made without a server: what would be sent, and what refuses to run.
let spec: LoadedSpec;
let model: ResourceModel;
beforeAll(async () => {
  spec = await loadSpecOrThrow();
  const inferred = inferResources(spec);
  if (!inferred.ok) throw new Error(inferred.error);
  model = inferred.model;
});

const options = (more: Partial<ConformanceOptions> = {}): ConformanceOptions => ({
  target: 'http://127.0.0.1:9/v1',
  key: 'plan-only',
  ...more,
});
const inputs = (more: Partial<PlanInputs> = {}): PlanInputs => ({
  spec,
  chosen: null,
  generated: generateRules(spec, model),
  fuzz: { rules: [], checks: [] },
  scenarios: { rules: [], scenarios: [] },
  ...more,
});
const planOf = (o: ConformanceOptions, i = inputs()) => {
  const planned = planRun(o, i);
  if (!planned.ok) throw new Error(planned.error);
  return planned.plan;
};
const names = (checks: Array<{ name: string }>) => checks.map((c) => c.name);

it('lists the engine rules and the generated ones, and leaves the opt-in quota rules out by default', () => {
  const plan = planOf(options());
  const ids = plan.rules.map((r) => r.id);
  expect(ids).toEqual(expect.arrayContaining(['response.no-5xx', 'auth.missing-key']));
  expect(ids.some((id) => id.startsWith('crud.'))).toBe(true);
  expect(ids.filter((id) => id.startsWith('quota.'))).toEqual([]);
  expect(plan.phases.first.length + plan.phases.queue.length + plan.phases.last.length).toBeGreaterThan(5);
});

it('selects the checks of one rule only, when no response rule asks for traffic', () => {
  const plan = planOf(options({ rules: ['auth.missing-key'] }));
  expect(plan.rules.map((r) => r.id)).toEqual(['auth.missing-key']);
  const all = [...plan.phases.first, ...plan.phases.queue, ...plan.phases.last];
  expect(all.length).toBeGreaterThan(0);
  expect(all.every((c) => c.rules.includes('auth.missing-key'))).toBe(true);
});

it('includes an opt-in tag --require names, and lists the required ids', () => {
  const plan = planOf(options({ require: ['quota'] }));
  expect(plan.required.length).toBeGreaterThan(0);
  const tagged = plan.rules.filter((r) => r.tags.includes('quota')).map((r) => r.id);
  expect(plan.required.sort()).toEqual(tagged.sort());
  expect(plan.rules.map((r) => r.id)).toEqual(expect.arrayContaining(plan.required));
});

it('puts the phases in their order: a last-phase check never runs side by side', () => {
  const plan = planOf(options());
  expect(plan.phases.queue.every((c) => c.phase === undefined)).toBe(true);
  expect(plan.phases.last.every((c) => c.phase === 'last')).toBe(true);
  expect(names(plan.phases.first)).toEqual(names(plan.phases.first.filter((c) => c.phase === 'first')));
});

it('says why a run cannot happen, before anything is sent', () => {
  const error = (o: ConformanceOptions, i = inputs()) => {
    const planned = planRun(o, i);
    return planned.ok ? 'planned' : planned.error;
  };
  expect(error(options({ require: ['no-such-tag'] }))).toMatch(/--require no-such-tag: no selected rule/);
  expect(error(options({ rules: ['callbacks.arrive'] }))).toMatch(
    /needs an operation that documents callbacks/,
  );
  const everyTag = [...new Set(planOf(options()).rules.flatMap((r) => r.tags))];
  expect(error(options({ exclude: everyTag }))).toMatch(/select no rule/);
  const replay = { rules: [], checks: [], bad: ['x.json'] };
  expect(error(options(), inputs({ replay }))).toBe('--replay: not a saved failure: x.json');
});

it('sends only the saved failures under --replay', () => {
  const rule = {
    id: 'replay.x' as const,
    title: 'x',
    source: 'x',
    kind: 'contract' as const,
    tags: ['fuzz'],
  };
  const check: Check = { name: 'replay x', rules: ['replay.x'], run: async () => [] };
  const plan = planOf(options(), inputs({ replay: { rules: [rule], checks: [check], bad: [] } }));
  expect(plan.rules).toEqual([rule]);
  expect(names(plan.phases.queue)).toContain('replay x');
  expect([...plan.phases.queue, ...plan.phases.first].some((c) => c.name === 'crud')).toBe(false);
});

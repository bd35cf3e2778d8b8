/** Run one scenario's steps in order: render templates, send, check expectations, capture values. */
import { checkExpectations } from '../verdict/expectations';
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import { jsonMediaType } from '../build/requests';
import type { Scenario, ScenarioStep } from '../load/scenario-schema';
import type { Finding, RuleKind } from '../types';
import type { Outgoing } from '../send/client';
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import { dataRuleId } from '../rules';
import { getPointer, render } from '../send/template';

/** A scenario as an executable check of its rule. */
export function scenarioCheck(scenario: Scenario, kind: RuleKind): Check {
  const outsideContract = kind === 'assumption';
  return {
    name: `scenario ${scenario.id}`,
    rules: [dataRuleId(scenario.rule)],
    run: (ctx) => runScenario(scenario, ctx, outsideContract),
  };
}

/** Run the steps; the first problem of a step ends the scenario (later steps may depend on it). */
export async function runScenario(
  scenario: Scenario,
  ctx: RunContext,
  outsideContract = false,
): Promise<Finding[]> {
  const rule = dataRuleId(scenario.rule);
  const absent = missingOperations(scenario, ctx.spec);
  if (absent.length > 0)
    return [skip(rule, `scenario ${scenario.id}: operation ${absent.join(', ')} is not in the document`)];
  const vars: Record<string, unknown> = { run: ctx.runPrefix };
  let last: Finding | undefined;
  for (const step of scenario.steps) {
    const out = buildRequest(step, vars, ctx.spec);
    if (typeof out === 'string') return [fail(rule, `step "${step.name}": ${out}`)];
    const result = await ctx.client.send({ ...out, outsideContract });
    const bad = unusable(rule, result);
    if (bad) return [{ ...bad, problem: `step "${step.name}": ${bad.problem ?? ''}` }];
    if (result.kind !== 'response') return [];
    const problems = step.expect
      ? checkExpectations(step.expect, result.response, ctx.spec, vars, result.exchange.operationId)
      : [];
    for (const [name, pointer] of Object.entries(step.capture ?? {})) {
      const value = getPointer(result.response.json, pointer);
      if (value === undefined) problems.push(`cannot capture ${name}: nothing at ${pointer}`);
      else vars[name] = value;
    }
    if (problems.length > 0)
      return [fail(rule, `step "${step.name}": ${problems.join('; ')}`, result.exchange)];
    last = pass(rule, result.exchange);
  }
  return last ? [last] : [];
}

/** Operations the scenario names that the document does not have. */
export function missingOperations(scenario: Scenario, spec: LoadedSpec): string[] {
  const named = scenario.steps.flatMap((s) => (s.request.operation ? [s.request.operation] : []));
  return [...new Set(named)].filter((id) => !spec.byId.has(id));
}

/** The method and path template of a step: the operation's, or the step's own. */
function routeOf(
  req: ScenarioStep['request'],
  spec: LoadedSpec,
): { method: string; template: string; op?: OperationSpec } {
  const op = req.operation ? spec.byId.get(req.operation) : undefined;
  if (op) return { method: op.method.toUpperCase(), template: op.path, op };
  return { method: req.method ?? 'GET', template: req.path ?? '/' };
}

function buildRequest(
  step: ScenarioStep,
  vars: Record<string, unknown>,
  spec: LoadedSpec,
): Outgoing | string {
  const req = step.request;
  const route = routeOf(req, spec);
  const params = render(req.params ?? {}, vars);
  const values = params.value as Record<string, unknown>;
  const unfilled = (route.op?.pathParams ?? []).filter((p) => values[p] === undefined);
  if (unfilled.length > 0)
    return `no value for path parameter(s) ${unfilled.join(', ')} of ${req.operation ?? ''}`;
  const filled = route.template.replace(/\{([^}]+)\}/g, (text, name: string) =>
    route.op && values[name] !== undefined ? encodeURIComponent(String(values[name])) : text,
  );
  const path = render(filled, vars);
  const headers = render(req.headers ?? {}, vars);
  const body = req.body === undefined ? undefined : render(req.body, vars);
  const raw = req.rawBody === undefined ? undefined : render(req.rawBody, vars);
  const missing = [
    ...params.missing,
    ...path.missing,
    ...headers.missing,
    ...(body?.missing ?? []),
    ...(raw?.missing ?? []),
  ];
  if (missing.length > 0) return `unknown template variable(s) ${missing.join(', ')}`;
  const hasBody = body !== undefined || raw !== undefined;
  const given = headers.value as Record<string, string>;
  const hasType = Object.keys(given).some((h) => h.toLowerCase() === 'content-type');
  const type = route.op ? jsonMediaType(route.op) : 'application/json';
  return {
    method: route.method,
    path: String(path.value),
    auth: { use: req.auth === 'none' ? 'none' : 'key' },
    headers: hasBody && !hasType ? { 'Content-Type': type, ...given } : given,
    body: body !== undefined ? JSON.stringify(body.value) : raw === undefined ? undefined : String(raw.value),
  };
}

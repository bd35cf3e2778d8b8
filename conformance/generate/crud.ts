/**
 * Generated from each resource of the document (spec/resources.ts): its lifecycle, an unknown id on every item
 * operation, and a client-sent readOnly property on the create.
 */
import type { OperationSpec } from '../../spec/load';
import { mapItem } from '../../spec/envelope';
import type { Resource } from '../../spec/resources';
import { objectShape } from '../../spec/schema-shape';
import { errorBodyProblem } from '../../spec/http/error-body';
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import { generateValid } from './values';
import type { Finding } from '../types';
import { crudRuleId, crudRules, crudSteps } from './crud-rules';
import { runLifecycle } from './lifecycle';
import { bodyRequest, itemPathOf, notFoundStatus, rejectStatuses, successStatuses } from './requests';

const ITEM_ACTIONS = ['read', 'replace', 'patch', 'remove'] as const;

/**
 * An id no run creates: the largest 32-bit integer less a little, or a prefixed string; when the item
 * parameter's schema refuses that (`format: uuid`), a value generated from that schema.
 */
function unknownId(resource: Resource, ctx: RunContext): string {
  if (resource.idType === 'integer') return '2147483000';
  const plain = `${ctx.runPrefix}-no-such-${resource.name}`;
  const param = Object.values(resource.operations)
    .map((id) => ctx.spec.byId.get(id ?? ''))
    .flatMap((op) => op?.pathParamSpecs ?? [])
    .find((p) => p.name === resource.itemParam);
  if (!param || param.validate(plain)) return plain;
  const generated = generateValid(param.schema, ctx.random, ctx.runPrefix);
  return typeof generated === 'string' && param.validate(generated) ? generated : plain;
}

/** The check of one resource. */
export function crudCheck(resource: Resource): Check {
  return {
    name: `${resource.name} lifecycle`,
    rules: crudRules(resource).map((r) => r.id),
    async run(ctx: RunContext): Promise<Finding[]> {
      const findings = await runLifecycle(resource, ctx);
      const steps = crudSteps(resource);
      if (steps.includes('unknown-id-404')) findings.push(...(await unknownIds(resource, ctx)));
      if (steps.includes('read-only-rejected')) findings.push(...(await readOnlySent(resource, ctx)));
      return findings;
    },
  };
}

/** Every item operation with an id no one created: 404, with the documented error body. */
async function unknownIds(resource: Resource, ctx: RunContext): Promise<Finding[]> {
  const rule = crudRuleId(resource, 'unknown-id-404');
  const findings: Finding[] = [];
  const id = unknownId(resource, ctx);
  // --read-only: the read alone (the writes would be skipped anyway, and would hide the read's verdict).
  const actions = ctx.readOnly ? ITEM_ACTIONS.filter((a) => a === 'read') : ITEM_ACTIONS;
  if (!actions.some((a) => resource.operations[a]))
    return [skip(rule, '--read-only: the item operations all write')];
  for (const action of actions) {
    const opId = resource.operations[action];
    const op = opId ? ctx.spec.byId.get(opId) : undefined;
    if (!op) continue;
    const path = itemPathOf(resource, id, op.path);
    // A valid body, so that a 400 cannot stand in for the 404.
    const out = op.requestBody
      ? bodyRequest(op, path, {
          json: generateValid(op.requestBody.schema, ctx.random, ctx.runPrefix, { full: true }),
        })
      : { method: op.method.toUpperCase(), path, auth: { use: 'key' as const } };
    const result = await ctx.client.send(out);
    const bad = unusable(rule, result);
    if (bad || result.kind !== 'response') {
      if (bad) findings.push(bad);
      continue;
    }
    const { response, exchange } = result;
    const wanted = notFoundStatus(op);
    const problem =
      response.status !== wanted
        ? `status ${response.status}, expected ${wanted}`
        : errorBodyProblem(ctx.spec, response, op.operationId);
    findings.push(problem ? fail(rule, `${out.method} ${path}: ${problem}`, exchange) : pass(rule, exchange));
  }
  return findings;
}

/** The create with each readOnly property set: 400 (or the documented rejection), never stored. */
async function readOnlySent(resource: Resource, ctx: RunContext): Promise<Finding[]> {
  const rule = crudRuleId(resource, 'read-only-rejected');
  const op = ctx.spec.byId.get(resource.operations.create ?? '') as OperationSpec;
  const findings: Finding[] = [];
  for (const name of resource.readOnly) {
    const body = generateValid(op.requestBody?.schema ?? {}, ctx.random, ctx.runPrefix, {
      full: true,
    }) as Record<string, unknown>;
    const prop = objectShape(resource.itemSchema)?.properties[name];
    const value = prop ? generateValid(prop, ctx.random, ctx.runPrefix) : 987654321;
    const json = mapItem(body, resource.envelope, (item) => ({ ...item, [name]: value }));
    const result = await ctx.client.send(bodyRequest(op, op.path, { json }));
    if (result.kind === 'skipped') {
      findings.push(skip(rule, result.reason, result.exchange));
      continue;
    }
    if (result.kind === 'error') {
      findings.push(fail(rule, `no response: ${result.exchange.error ?? ''}`, result.exchange));
      continue;
    }
    const wanted = rejectStatuses(op);
    const { status } = result.response;
    findings.push(
      wanted.includes(status)
        ? pass(rule, result.exchange)
        : fail(
            rule,
            `${op.operationId} with "${name}" set: status ${status}, expected ${wanted.join(' or ')}${successStatuses(op).includes(String(status)) ? ' (accepted)' : ''}`,
            result.exchange,
          ),
    );
  }
  return findings;
}

/**
 * Generated from each operation's request body schema: `body.<operationId>.<case>` rules, one per case of
 * body-cases.ts. Operations on an item path get an item the run creates first.
 */
import { mapItem } from '../../spec/envelope';
import { isJsonPatch } from '../../spec/json-patch';
import { unchangedPatch } from '../generate/json-patch';
import type { OperationSpec } from '../../spec/load';
import { errorBodyProblem } from '../../spec/http/error-body';
import { rejectStatuses } from '../../spec/statuses';
import { bodyRefusalStatus, decodeJsonBody, unexpectedBodyProblem } from '../../spec/http/request-body';
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import { seededRandom } from '../send/check-context';
import type { Exchange, Finding } from '../types';
import type { RuleOf } from '../rules';
import { bodyCases, type BodyCase } from '../generate/body-cases';
import {
  bodyRequest,
  createItem,
  itemPathOf,
  successStatuses,
  withinParent,
  withoutClientId,
} from './requests';

export const bodyRuleId = (op: OperationSpec, c: { name: string }): `body.${string}` =>
  `body.${op.operationId}.${c.name}`;

/** The distinct cases of an operation (their names do not depend on the random values). */
function casesOf(op: OperationSpec, random: () => number, prefix: string): BodyCase[] {
  return op.requestBody?.kind === 'json' ? bodyCases(op.requestBody.schema, random, prefix) : [];
}

/** Methods a body can be sent with (fetch sends none with GET or HEAD). */
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** The case of an operation that documents no body: one sent all the same (docs/petstore-decisions.md). */
const UNEXPECTED = { name: 'unexpected-body' };

/**
 * The body rules of `op`; a non-JSON body gets one rule, skipped at run time with the reason; an operation
 * without a body whose method carries one gets `body.<operationId>.unexpected-body`.
 */
export function bodyRules(op: OperationSpec): RuleOf<`body.${string}`>[] {
  const source = `${op.method.toUpperCase()} ${op.path}`;
  if (!op.requestBody)
    return BODY_METHODS.has(op.method.toLowerCase())
      ? [
          {
            id: bodyRuleId(op, UNEXPECTED),
            title: `${op.operationId} refuses a body it does not document with 415`,
            source,
            kind: 'assumption',
            tags: ['generated', 'body', 'assumption'],
          },
        ]
      : [];
  const cases = casesOf(op, seededRandom(0), 'p');
  if (cases.length === 0)
    return [
      {
        id: bodyRuleId(op, { name: 'valid' }),
        title: `${op.operationId} accepts valid bodies`,
        source,
        kind: 'contract',
        tags: ['generated', 'body'],
      },
    ];
  const seen = new Map<string, RuleOf<`body.${string}`>>();
  for (const c of cases) {
    if (seen.has(c.name)) continue;
    const title =
      c.expect === 'accept'
        ? `${op.operationId} accepts valid bodies (every property, and the required ones only)`
        : `${op.operationId} rejects ${c.label} with ${expectedRefusal(op, c)}`;
    seen.set(c.name, {
      id: bodyRuleId(op, c),
      title,
      source,
      kind: c.kind,
      tags: ['generated', 'body', ...(c.kind === 'assumption' ? ['assumption'] : [])],
    });
  }
  return [...seen.values()];
}

/** Where a body goes, and what a valid body needs to address the right item. */
export interface BodyTarget {
  path: string;
  steps: Exchange[];
  /** Applied to valid bodies: the id of the item the run created (an update), no client id (a create). */
  adjust: (body: unknown) => unknown;
}

const same = (body: unknown): unknown => body;

/**
 * A path for `op`: its own when it has no parameters, else an item the run creates. An update (`PUT` on the
 * collection, the id in the body) gets an item too, its id put in the body; a create whose id the client may
 * send leaves it out, so that generated ids never collide.
 */
export async function pathFor(op: OperationSpec, ctx: RunContext): Promise<BodyTarget | { skip: string }> {
  const binding = ctx.model.byOperation.get(op.operationId);
  if (binding?.action === 'update' && binding.resource.idField) {
    const { resource } = binding;
    const made = await createItem(resource, ctx, `${op.operationId}-target`);
    if (!made.ok) return { skip: `could not create the ${resource.name} item to update: ${made.problem}` };
    const id = made.item[resource.idField ?? ''];
    const adjust = (body: unknown): unknown =>
      mapItem(body, resource.envelope, (item) => ({ ...item, [resource.idField ?? '']: id }));
    return { path: op.path, steps: [made.exchange], adjust };
  }
  if (binding?.action === 'create') {
    const within = await withinParent(binding.resource, ctx);
    if ('skip' in within) return within;
    const adjust = (body: unknown) => withoutClientId(binding.resource, body);
    return { path: within.fill(op.path), steps: within.steps, adjust };
  }
  if (op.pathParams.length === 0) return { path: op.path, steps: [], adjust: same };
  const resource = ctx.model.resources.find(
    (r) => r.itemPath && (op.path === r.itemPath || op.path.startsWith(`${r.itemPath}/`)),
  );
  if (!resource)
    return { skip: `${op.path} needs an existing item and no resource of the document creates one` };
  const made = await createItem(resource, ctx, `${op.operationId}-target`);
  if (!made.ok) return { skip: `could not create the ${resource.name} item to address: ${made.problem}` };
  const path = itemPathOf(resource, made.id, op.path);
  // A JSON Patch valid by its schema need not apply to the item (`/x` may not exist): a valid one is one that does.
  const idField = resource.idField;
  const adjust = isJsonPatch(op) && idField ? () => unchangedPatch(idField, made.item) : same;
  return /\{[^}]+\}/.test(path)
    ? { skip: `${op.path} has path parameters besides the item's` }
    : { path, steps: [made.exchange], adjust };
}

/** The check of one operation's body. */
export function bodyCheck(op: OperationSpec): Check {
  const rules = bodyRules(op);
  return {
    name: `${op.operationId} bodies`,
    rules: rules.map((r) => r.id),
    async run(ctx: RunContext): Promise<Finding[]> {
      const body = op.requestBody;
      if (!body) return [await unexpectedBody(op, ctx)];
      if (body.kind !== 'json')
        return rules.map((r) =>
          skip(r.id, `the body is ${body.mediaTypes.join(', ')}; only JSON bodies are generated`),
        );
      const target = await pathFor(op, ctx);
      if ('skip' in target) return rules.map((r) => skip(r.id, target.skip));
      const findings: Finding[] = [];
      for (const c of casesOf(op, ctx.random, `${ctx.runPrefix}-${op.operationId}`)) {
        // A case meant to be refused that the schema accepts (a type a oneOf allows) says so, unsent.
        if (c.expect !== 'accept' && c.kind === 'contract' && body.validate(c.body)) {
          findings.push(skip(bodyRuleId(op, c), `${c.label} is valid by the schema: nothing to refuse`));
          continue;
        }
        findings.push(
          await runCase(
            op,
            c.expect === 'accept' ? { ...c, body: target.adjust(c.body) } : c,
            target.path,
            target.steps,
            ctx,
          ),
        );
      }
      return findings;
    },
  };
}

/**
 * A JSON body sent to an operation that documents none (an item the run made when it addresses one): the shared
 * rule's refusal (spec/http/request-body.ts: 415), which the mock answers and the proxy's judge records.
 */
async function unexpectedBody(op: OperationSpec, ctx: RunContext): Promise<Finding> {
  const rule = bodyRuleId(op, UNEXPECTED);
  const type = 'application/json';
  const refused = unexpectedBodyProblem(type, false);
  if (!refused) return skip(rule, 'the shared rule reads no body here');
  const target = await pathFor(op, ctx);
  if ('skip' in target) return skip(rule, target.skip);
  const result = await ctx.client.send({
    method: op.method.toUpperCase(),
    path: target.path,
    auth: { use: 'key' },
    headers: { 'Content-Type': type },
    body: '{}',
    // HTTP's 415 need not be one of the document's statuses: the request is outside what it describes.
    outsideContract: true,
  });
  const bad = unusable(rule, result);
  if (bad || result.kind !== 'response') return bad ?? skip(rule, 'no response');
  const where = `${op.operationId} with a JSON body it does not document: status ${result.response.status}`;
  if (result.response.status !== refused.status)
    return fail(rule, `${where}, expected ${refused.status}`, result.exchange, target.steps);
  const problem = errorBodyProblem(ctx.spec, result.response, op.operationId);
  return problem ? fail(rule, `${where}: ${problem}`, result.exchange) : pass(rule, result.exchange);
}

/**
 * The status a case meant to be refused expects: the shared body rule's (spec/http/request-body.ts), the one the
 * mock answers and the proxy's judge records: text that is not JSON by its decoding, a value by its schema.
 */
export function expectedRefusal(op: OperationSpec, c: BodyCase): number {
  if (c.raw !== undefined) {
    const decoded = decodeJsonBody(op.responses, c.raw);
    if (!('value' in decoded)) return decoded.status;
  }
  return bodyRefusalStatus(op.responses);
}

async function runCase(
  op: OperationSpec,
  c: BodyCase,
  path: string,
  steps: Exchange[],
  ctx: RunContext,
): Promise<Finding> {
  const rule = bodyRuleId(op, c);
  const result = await ctx.client.send(
    bodyRequest(op, path, c.raw !== undefined ? { raw: c.raw } : { json: c.body }),
  );
  const bad = unusable(rule, result);
  if (bad || result.kind !== 'response') return bad ?? skip(rule, 'no response');
  const { status } = result.response;
  const where = `${op.operationId} with ${c.label}: status ${status}`;
  if (c.expect === 'accept') {
    const ok = successStatuses(op);
    return ok.includes(String(status))
      ? pass(rule, result.exchange)
      : fail(rule, `${where}, expected ${ok.join(' or ')}`, result.exchange, steps);
  }
  const wanted = expectedRefusal(op, c);
  // A document that names no refusal status lets the server pick HTTP's 400 or 422 (spec/statuses.ts).
  const allowed = rejectStatuses(op).includes(wanted) ? rejectStatuses(op) : [wanted];
  if (!allowed.includes(status))
    return fail(rule, `${where}, expected ${allowed.join(' or ')}`, result.exchange, steps);
  const problem = errorBodyProblem(ctx.spec, result.response, op.operationId);
  return problem ? fail(rule, `${where}: ${problem}`, result.exchange, steps) : pass(rule, result.exchange);
}

/**
 * Generated from each request body schema with the run's seed: valid bodies are accepted, bodies that
 * break the schema get the status the shared body rule decides (spec/http/request-body.ts: 400, or the 422 an
 * operation documents instead), a client-sent read-only property (the id) is not honoured, a body in a
 * Content-Type the operation does not document gets that rule's 415: the status the mock answers and the proxy's
 * judge records (a body sent where none is documented: build/bodies.ts, `body.<operationId>.unexpected-body`).
 */
import { successStatuses } from '../../spec/success';
import type { OperationSpec } from '../../spec/load';
import { rejectStatuses } from '../../spec/statuses';
import { bodyMediaProblem, parseMediaType } from '../../spec/http/request-body';
import { errorBodyProblem } from '../../spec/http/error-body';
import { fail, pass, seededRandom, skip, unusable, type Check, type RunContext } from '../send/check-context';
import type { EngineRuleId } from '../rules';
import { generateInvalid, generateValid, readOnlyProperties } from '../generate/values';
import type { Finding } from '../types';
import { pathFor } from '../build/bodies';
import { bodyRequest } from '../build/requests';

const VALID_CASES = 2;
const INVALID_CASES = 3;
const CLIENT_ID = 987654321;
const MEDIA_TYPE = 'assume.media-type-415';
const RULES: EngineRuleId[] = [
  'body.generated-valid',
  'body.generated-invalid',
  'assume.client-id-ignored',
  MEDIA_TYPE,
];
/** Types a JSON body is sent as to be refused: the first the operation does not document. */
const UNDOCUMENTED_TYPES = ['text/plain', 'application/octet-stream', 'application/x-unknown'];

/** Body cases for every operation with a JSON request body. */
export const requestBodiesCheck: Check = {
  name: 'generated request bodies',
  rules: RULES,
  async run(ctx: RunContext): Promise<Finding[]> {
    const findings: Finding[] = [];
    for (const op of ctx.spec.operations) {
      if (op.requestBody?.kind === 'json') findings.push(...(await checkOperation(op, ctx)));
    }
    if (!findings.some((f) => f.ruleId === MEDIA_TYPE))
      findings.push(skip(MEDIA_TYPE, 'no operation takes a JSON request body'));
    return findings;
  },
};

async function checkOperation(op: OperationSpec, ctx: RunContext): Promise<Finding[]> {
  const schema = op.requestBody?.schema ?? {};
  const findings: Finding[] = [];
  // Item operations get an item the run creates; without one these rules say why they could not run.
  const target = await pathFor(op, ctx);
  if ('skip' in target) return RULES.map((rule) => skip(rule, target.skip));
  const path = target.path;
  // The one reading of an operation's success (spec/success.ts): a `2XX` range admits every 2xx.
  const success = successStatuses(op);
  for (let i = 0; i < VALID_CASES; i++) {
    const body = target.adjust(generateValid(schema, ctx.random, ctx.runPrefix));
    findings.push(
      await judge(ctx, op, path, body, 'body.generated-valid', (status) =>
        success.includes(String(status)) ? undefined : `expected ${success.join(' or ')}`,
      ),
    );
  }
  // The status the mock answers and the judge records for a body against its schema (spec/http/request-body.ts).
  const rejected = rejectStatuses(op);
  for (const c of generateInvalid(schema, ctx.random, ctx.runPrefix, INVALID_CASES)) {
    // A mutation the schema still accepts (a boolean where a oneOf allows one) is not an invalid body.
    if (op.requestBody?.validate(c.body)) continue;
    findings.push(
      await judge(ctx, op, path, c.body, 'body.generated-invalid', (status) =>
        rejected.includes(status) ? undefined : `${c.label}: expected ${rejected.join(' or ')}`,
      ),
    );
  }
  findings.push(await checkMediaType(op, path, target.adjust, ctx));
  const successSchema = op.responses.get(success[0] ?? '')?.schema;
  for (const name of readOnlyProperties(successSchema)) {
    const valid = target.adjust(generateValid(schema, ctx.random, ctx.runPrefix)) as object;
    const body = { ...valid, [name]: CLIENT_ID };
    findings.push(
      await judge(ctx, op, path, body, 'assume.client-id-ignored', (status, json) => {
        if (rejected.includes(status)) return undefined;
        if (!success.includes(String(status)))
          return `expected ${rejected.join(' or ')}, or ${success.join(' or ')}`;
        const echoed = (json as Record<string, unknown> | undefined)?.[name];
        return echoed === CLIENT_ID ? `the server kept the client-sent ${name} ${CLIENT_ID}` : undefined;
      }),
    );
  }
  return findings;
}

/** A valid JSON body sent as a type the operation does not document: the shared rule's refusal (415). */
async function checkMediaType(
  op: OperationSpec,
  path: string,
  adjust: (body: unknown) => unknown,
  ctx: RunContext,
): Promise<Finding> {
  for (const type of UNDOCUMENTED_TYPES) {
    const refused = bodyMediaProblem(op.requestBody, op.responses, type, parseMediaType(type), false);
    if (typeof refused === 'string') continue;
    // A body valid in all but its type: the refusal is the media type's, not the content's. Drawn from a random
    // of its own, so the run's seeded cases (and their --seed replays) stay what they were.
    const valid = generateValid(op.requestBody?.schema ?? {}, seededRandom(1), ctx.runPrefix);
    const body = JSON.stringify(adjust(valid));
    const out = bodyRequest(op, path, { raw: body });
    return refusal(ctx, op, { ...out, headers: { 'Content-Type': type } }, MEDIA_TYPE, refused.status);
  }
  return skip(MEDIA_TYPE, `${op.operationId} documents ${UNDOCUMENTED_TYPES.join(', ')}: nothing to refuse`);
}

/** Send `out` and expect the refusal `status` with an Error body (the runner's negative cases share it). */
async function refusal(
  ctx: RunContext,
  op: OperationSpec,
  out: Parameters<RunContext['client']['send']>[0],
  rule: EngineRuleId,
  status: number,
): Promise<Finding> {
  // A refusal of a request the document does not describe: HTTP's 415 need not be one of its statuses.
  const result = await ctx.client.send({ ...out, outsideContract: true });
  const bad = unusable(rule, result);
  if (bad || result.kind !== 'response') return bad ?? pass(rule);
  const got = result.response.status;
  const what = `${op.operationId} with a ${out.headers?.['Content-Type'] ?? ''} body`;
  if (got !== status) return fail(rule, `${what}: status ${got}, expected ${status}`, result.exchange);
  const problem = errorBodyProblem(ctx.spec, result.response, op.operationId);
  return problem ? fail(rule, `${what}: ${problem}`, result.exchange) : pass(rule, result.exchange);
}

async function judge(
  ctx: RunContext,
  op: OperationSpec,
  path: string,
  body: unknown,
  rule: EngineRuleId,
  problemOf: (status: number, json: unknown) => string | undefined,
): Promise<Finding> {
  const result = await ctx.client.send(bodyRequest(op, path, { json: body }));
  const bad = unusable(rule, result);
  if (bad || result.kind !== 'response') return bad ?? pass(rule);
  const problem = problemOf(result.response.status, result.response.json);
  if (!problem) return pass(rule, result.exchange);
  const seedNote = '(replay with the same --seed)';
  return fail(
    rule,
    `${op.operationId}: status ${result.response.status}; ${problem} ${seedNote}`,
    result.exchange,
  );
}

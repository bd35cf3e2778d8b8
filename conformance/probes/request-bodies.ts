/**
 * Generated from each request body schema with the run's seed: valid bodies are accepted, bodies that
 * break the schema get 400, and a client-sent read-only property (the id) is not honoured.
 */
import type { OperationSpec } from '../../spec/load';
import { fail, pass, skip, unusable, type Check, type RunContext } from '../send/check-context';
import { generateInvalid, generateValid, readOnlyProperties } from '../generate/values';
import type { Finding } from '../types';
import { pathFor } from '../generate/bodies';
import { bodyRequest, rejectStatuses } from '../generate/requests';

const VALID_CASES = 2;
const INVALID_CASES = 3;
const CLIENT_ID = 987654321;
const RULES = ['body.generated-valid', 'body.generated-invalid', 'assume.client-id-ignored'];

/** Body cases for every operation with a JSON request body. */
export const requestBodiesCheck: Check = {
  name: 'generated request bodies',
  rules: RULES,
  async run(ctx: RunContext): Promise<Finding[]> {
    const findings: Finding[] = [];
    for (const op of ctx.spec.operations) {
      if (op.requestBody?.kind === 'json') findings.push(...(await checkOperation(op, ctx)));
    }
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
  const success = [...op.responses.keys()].filter((s) => s.startsWith('2'));
  for (let i = 0; i < VALID_CASES; i++) {
    const body = target.adjust(generateValid(schema, ctx.random, ctx.runPrefix));
    findings.push(
      await judge(ctx, op, path, body, 'body.generated-valid', (status) =>
        success.includes(String(status)) ? undefined : `expected ${success.join(' or ')}`,
      ),
    );
  }
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

async function judge(
  ctx: RunContext,
  op: OperationSpec,
  path: string,
  body: unknown,
  rule: string,
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

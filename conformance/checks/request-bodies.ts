/**
 * Generated from each request body schema with the run's seed: valid bodies are accepted, bodies that
 * break the schema get 400, and a client-sent read-only property (the id) is not honoured.
 */
import type { OperationSpec } from '../../spec/load';
import { fail, pass, unusable, type Check, type RunContext } from '../execute/check-context';
import { generateInvalid, generateValid, readOnlyProperties } from '../execute/generate-bodies';
import type { Finding } from '../types';
import { samplePath } from './operation-request';

const VALID_CASES = 2;
const INVALID_CASES = 3;
const CLIENT_ID = 987654321;

/** Body cases for every operation with a JSON request body. */
export const requestBodiesCheck: Check = {
  name: 'generated request bodies',
  rules: ['body.generated-valid', 'body.generated-invalid', 'assume.client-id-ignored'],
  async run(ctx: RunContext): Promise<Finding[]> {
    const findings: Finding[] = [];
    for (const op of ctx.spec.operations) {
      if (op.requestBody) findings.push(...(await checkOperation(op, ctx)));
    }
    return findings;
  },
};

async function checkOperation(op: OperationSpec, ctx: RunContext): Promise<Finding[]> {
  const schema = op.requestBody?.schema ?? {};
  const findings: Finding[] = [];
  const success = [...op.responses.keys()].filter((s) => s.startsWith('2'));
  for (let i = 0; i < VALID_CASES; i++) {
    const body = generateValid(schema, ctx.random, ctx.runPrefix);
    findings.push(
      await judge(ctx, op, body, 'body.generated-valid', (status) =>
        success.includes(String(status)) ? undefined : `expected ${success.join(' or ')}`,
      ),
    );
  }
  for (const c of generateInvalid(schema, ctx.random, ctx.runPrefix, INVALID_CASES)) {
    findings.push(
      await judge(ctx, op, c.body, 'body.generated-invalid', (status) =>
        status === 400 ? undefined : `${c.label}: expected 400`,
      ),
    );
  }
  const successSchema = op.responses.get(success[0] ?? '')?.schema;
  for (const name of readOnlyProperties(successSchema)) {
    const body = { ...(generateValid(schema, ctx.random, ctx.runPrefix) as object), [name]: CLIENT_ID };
    findings.push(
      await judge(ctx, op, body, 'assume.client-id-ignored', (status, json) => {
        if (status === 400) return undefined;
        if (!success.includes(String(status))) return `expected 400, or ${success.join(' or ')}`;
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
  body: unknown,
  rule: string,
  problemOf: (status: number, json: unknown) => string | undefined,
): Promise<Finding> {
  const result = await ctx.client.send({
    method: op.method.toUpperCase(),
    path: samplePath(op.path),
    auth: { use: 'key' },
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
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

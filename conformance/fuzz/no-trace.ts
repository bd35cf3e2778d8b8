/**
 * `fuzz.<operationId>.no-trace`: a refused create carries a marker (in a property it does not probe, so the body
 * stays invalid for the same reason), and after the phases the list must hold none of them.
 */
import type { OperationSpec } from '../../spec/load';
import type { Resource } from '../../spec/resources';
import { listItems, withQuerystring } from '../build/requests';
import { fail, pass, skip, type RunContext } from '../send/check-context';
import type { Finding } from '../types';
import type { FuzzCase } from './cases';
import { pageQuery } from './chain-state';

export const noTraceRuleId = (op: OperationSpec): `fuzz.${string}` => `fuzz.${op.operationId}.no-trace`;

/**
 * `c` with a unique marker in a string property it does not probe, when the body stays invalid so: a refused
 * create that was stored anyway shows up in the list with it. Undefined when no property can carry one.
 */
export function marked(op: OperationSpec, c: FuzzCase, marker: string): FuzzCase | undefined {
  const body = c.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  // The marker must not change why the body is invalid (an email made a marker would be a second fault).
  const why = problemsOf(op, body);
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== 'string') continue;
    const candidate = { ...body, [name]: marker };
    if (problemsOf(op, candidate) === why) return { ...c, body: candidate };
  }
  return undefined;
}

/** Where and why the document's validator refuses `body`, as one comparable string ('' when valid). */
function problemsOf(op: OperationSpec, body: unknown): string {
  const validate = op.requestBody?.validate;
  if (!validate || validate(body)) return '';
  return (validate.errors ?? [])
    .map((e) => `${e.instancePath} ${e.keyword}`)
    .sort()
    .join('|');
}

/** After the phases: the list holds no item carrying a marker of a refused create. */
export async function noTrace(
  op: OperationSpec,
  r: Resource,
  markers: string[],
  ctx: RunContext,
): Promise<Finding> {
  const rule = noTraceRuleId(op);
  const list = r.operations.list ? ctx.spec.byId.get(r.operations.list) : undefined;
  if (!list) return skip(rule, `the document has no list of ${r.name} to look in`);
  if (markers.length === 0) return skip(rule, 'no refused create carried a marker');
  // The largest page the list documents: a refused create stored anyway is among the newest items.
  const query = pageQuery(r, list);
  const path = withQuerystring(list, list.path);
  const result = await ctx.client.send({ method: 'GET', path, query, auth: { use: 'key' } });
  if (result.kind !== 'response') return skip(rule, 'the list could not be read');
  const items = listItems(r, result.response) ?? [];
  const text = JSON.stringify(items);
  const found = markers.filter((m) => text.includes(`"${m}"`));
  return found.length === 0
    ? pass(rule, result.exchange)
    : fail(
        rule,
        `${found.length} refused create(s) were stored anyway (listed with ${found.slice(0, 3).join(', ')})`,
        result.exchange,
      );
}

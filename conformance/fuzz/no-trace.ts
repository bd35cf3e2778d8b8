/**
 * A refused create leaves no trace: after the cases, one list of the resource must not show an item whose
 * client-written properties are exactly those of a body the server refused (each case's body is drawn afresh: its strings end in a random
 * number, so no accepted case carries the same values).
 */
import type { OperationSpec } from '../../spec/load';
import { unwrap } from '../../spec/envelope';
import type { Resource } from '../../spec/resource-types';
import { fail, pass, skip, unusable, type RunContext } from '../execute/check-context';
import { isObject, listItems } from '../generate/requests';
import type { Finding } from '../types';
import type { FuzzCase } from './cases';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Only bodies with a generated string (not an enum value or a short bound) can be told apart from other items. */
const traceable = (body: unknown): body is Record<string, unknown> =>
  isObject(body) && Object.values(body).some((v) => typeof v === 'string' && /\d{2}/.test(v));

const sorted = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

/** The properties of a listed item a client writes: without the id, readOnly and server-filled ones. */
function writable(resource: Resource, item: Record<string, unknown>): Record<string, unknown> {
  const server = new Set([resource.idField, ...resource.readOnly, ...(resource.serverFilled ?? [])]);
  return sorted(Object.fromEntries(Object.entries(item).filter(([k]) => !server.has(k))));
}

/** The largest page the list documents (its limit parameter's maximum), so a new item is on it. */
export function pageQuery(resource: Resource, list: OperationSpec): Record<string, string> {
  const name = resource.paging?.limit;
  const max = list.queryParams.find((p) => p.name === name)?.schema.maximum;
  return name && typeof max === 'number' ? { [name]: String(max) } : {};
}

/** The no-trace finding of `rule` for the creates of `resource` refused in `refused`. */
export async function noTrace(
  ctx: RunContext,
  resource: Resource,
  rule: string,
  refused: FuzzCase[],
): Promise<Finding> {
  const list = resource.operations.list ? ctx.spec.byId.get(resource.operations.list) : undefined;
  if (!list || list.path.includes('{'))
    return skip(rule, `${resource.name} has no list without path parameters to look in`);
  const bodies = refused
    .map((c) => ({ c, body: unwrap(c.request.body, resource.envelope) }))
    .filter((x): x is { c: FuzzCase; body: Record<string, unknown> } => traceable(x.body));
  if (bodies.length === 0) return skip(rule, 'no refused create had a body to look for');
  const result = await ctx.client.send({
    method: 'GET',
    path: list.path,
    query: pageQuery(resource, list),
    auth: { use: 'key' },
  });
  const bad = unusable(rule, result);
  if (bad || result.kind !== 'response') return bad ?? skip(rule, 'no response');
  const items = listItems(resource, result.response) ?? [];
  for (const { c, body } of bodies) {
    const found = items.find((item) => isObject(item) && same(writable(resource, item), sorted(body)));
    if (found)
      return fail(
        rule,
        `${c.label}: refused, yet the list shows it: ${JSON.stringify(found).slice(0, 200)}`,
        result.exchange,
      );
  }
  return pass(rule, result.exchange);
}

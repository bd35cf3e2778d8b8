/** The writing steps of a chain: a replace (valid or not) read back, and writes without a valid credential. */
import { innerSchema, unwrap, wrapAs } from '../../spec/envelope';
import { rejectStatuses, successStatuses } from '../../spec/statuses';
import type { OperationSpec } from '../../spec/load';
import type { Auth } from '../send/client';
import type { SecurityScheme } from '../send/credentials';
import { generateValid } from '../generate/values';
import { withRunPrefix } from './run-prefix';
import { bodyRequest, isObject, listItems, withoutClientId, withQuerystring } from '../build/requests';
import { stepPath } from '../lifecycle/plan';
import { boundaryCases } from './boundaries';
import { opOf, pageQuery, pick, readBack, send, statusProblem, type Item, type Walk } from './chain-state';

export async function replace(w: Walk, id: string, invalid: boolean): Promise<string | undefined> {
  const op = opOf(w, 'replace');
  if (!op?.requestBody) return undefined;
  const path = stepPath(w.resource, { op }, id);
  const schema = innerSchema(op.requestBody.schema, w.resource.envelope) ?? op.requestBody.schema;
  const idField = w.resource.idField ?? '';
  const keepId = (b: unknown) =>
    isObject(b) && idField in b ? { ...b, [idField]: w.live.get(id)?.[idField] } : b;
  if (invalid) {
    // A boundary case the document refuses (fuzz/boundaries.ts), on a valid body that names this item.
    const base = keepId(
      generateValid(schema, w.random, `fz-chain-bad-${(w.n++).toString(36)}`, { full: true }),
    );
    const refused = isObject(base)
      ? boundaryCases(schema, base).filter((c) => op.requestBody?.validate(c.body) === false)
      : [];
    const bad = pick(refused, w.random);
    if (!bad) return undefined;
    const res = await send(
      w,
      bodyRequest(op, path, { json: wrapAs(op.requestBody.schema, w.resource.envelope, bad.body) }),
    );
    if (!res) return 'skipped';
    return (
      statusProblem(op, res, rejectStatuses(op), `with ${bad.label}`) ??
      readBack(w, id, `a refused replace (${bad.label}) changes nothing`)
    );
  }
  const rb = op.requestBody;
  const next = withRunPrefix(
    keepId(generateValid(schema, w.random, `fz-chain-${(w.n++).toString(36)}`, { full: true })),
    schema,
    w.ctx.runPrefix,
    (v) => rb.validate(wrapAs(rb.schema, w.resource.envelope, v)),
  ) as Item;
  const res = await send(
    w,
    bodyRequest(op, path, { json: wrapAs(op.requestBody.schema, w.resource.envelope, next) }),
  );
  if (!res) return 'skipped';
  const problem = statusProblem(op, res, successStatuses(op).map(Number), 'replace');
  if (problem) return problem;
  w.live.set(id, next);
  return readBack(w, id, 'the replace is read back');
}

/** Writes without a valid credential: a create (401, and no item), then a delete of a live item (401, kept). */
export async function noKeyWrite(w: Walk): Promise<string | undefined> {
  const create = opOf(w, 'create');
  const remove = opOf(w, 'remove');
  const id = pick([...w.live.keys()], w.random);
  const auth = badCredential(w, create ?? remove);
  const label = auth.use === 'none' ? 'without a credential' : 'with an unknown key';
  if (create?.requiresAuth && create.requestBody) {
    const prefix = `fz-chain-nokey-${(w.n++).toString(36)}`;
    const body = withRunPrefix(
      withoutClientId(w.resource, generateValid(create.requestBody.schema, w.random, prefix, { full: true })),
      create.requestBody.schema,
      w.ctx.runPrefix,
      create.requestBody.validate,
    );
    const res = await send(w, { ...bodyRequest(create, create.path, { json: body }), auth });
    if (!res) return 'skipped';
    const problem =
      statusProblem(create, res, [401], label) ??
      (await notStored(w, unwrap(body, w.resource.envelope), label));
    if (problem) return problem;
  }
  if (!remove?.requiresAuth || id === undefined) return undefined;
  const res = await send(w, { method: 'DELETE', path: stepPath(w.resource, { op: remove }, id), auth });
  if (!res) return 'skipped';
  return statusProblem(remove, res, [401], label) ?? readBack(w, id, `a delete ${label} changes nothing`);
}

/** No credential, or an unknown key where the operation's own scheme puts a key (header, query, bearer token). */
function badCredential(w: Walk, op: OperationSpec | undefined): Auth {
  const schemes = (op?.security[0] ?? [])
    .map((name) => w.ctx.spec.securitySchemes[name])
    .filter((x): x is SecurityScheme => x !== undefined);
  return w.random() < 0.5 || schemes.length === 0
    ? { use: 'none' }
    : { use: 'as', schemes, value: 'fz-unknown-key-0000' };
}

/** After a refused create: the list shows no item with exactly the refused body's properties. */
export async function notStored(w: Walk, body: unknown, label: string): Promise<string | undefined> {
  const op = opOf(w, 'list');
  if (!op || op.path.includes('{') || !isObject(body)) return undefined;
  const res = await send(w, {
    method: 'GET',
    path: withQuerystring(op, op.path),
    query: pageQuery(w.resource, op),
    auth: { use: 'key' },
  });
  if (!res) return 'skipped';
  const same = (item: unknown) =>
    isObject(item) && Object.entries(body).every(([k, v]) => JSON.stringify(item[k]) === JSON.stringify(v));
  const found = (listItems(w.resource, res) ?? []).find(same);
  return found
    ? `a create ${label} was refused, yet the list shows it: ${JSON.stringify(found).slice(0, 160)}`
    : undefined;
}

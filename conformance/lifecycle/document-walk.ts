/**
 * The document walk: every operation of a document called once, as a client of that document would, each answer
 * judged against the document. It is the runner in small: the requests go through the runner's client (its one
 * send path: credentials placed as each operation's security requires, pacing, masking), every answer is judged
 * by the shared response checks (spec/http/response-checks.ts), and each resource is walked in the order of the
 * one lifecycle walker (lifecycle/plan.ts): created, read back, listed, changed (replace, patch, update) and read
 * back, deleted and read again, with the ids the creates answered. What the walk adds is its expectation of a
 * valid client's call: a documented 2xx (a 404 after a delete), and without credentials, on every secured
 * operation, 401 with WWW-Authenticate. No code names a document (test/wild-documents.test.ts, `npm run judge`).
 */
import type { OperationSpec } from '../../spec/compile';
import { successStatusOf } from '../../spec/success';
import type { LoadedSpec } from '../../spec/load';
import type { ResourceModel } from '../../spec/resources';
import { responseChecker } from '../../spec/http/response-checks';
import { successStatuses } from '../../spec/statuses';
import { seededRandom } from '../send/check-context';
import { createClient, type Client } from '../send/client';
import type { Exchange, FetchLike, Finding } from '../types';
import { createItem, itemParams, walkResource } from './walk-resource';
import { keyParams } from '../../spec/resource-key';
import type { Call, DocumentWalk, WalkResult, WalkStep } from './walk-types';

export type { Call, WalkResult, WalkStep } from './walk-types';
import { bodyFor, paramValue, walkRequest } from './walk-requests';
import { isReadMethod } from '../../spec/methods';

export interface WalkOptions {
  spec: LoadedSpec;
  model: ResourceModel;
  /** The document's base URL on the target, e.g. `http://127.0.0.1:4010/api/v1`. */
  baseUrl: string;
  /** A key the target accepts under every scheme of the document. */
  key: string;
  fetch?: FetchLike;
  /** Also send each secured operation without credentials (default true). */
  anonymous?: boolean;
}

/** Walk every operation of the document; see the module comment. */
export async function walkDocument(options: WalkOptions): Promise<WalkResult> {
  const { spec } = options;
  const walk = newWalk(options, spec);
  const done = new Set<string>();
  for (const resource of options.model.resources) {
    for (const id of Object.values(resource.operations)) if (id) done.add(id);
    await walkResource(walk, resource);
  }
  for (const op of spec.operations) {
    // What the lifecycles sent (an item's actions among it) is not sent again on an item of its own.
    // A resource's read its lifecycle did not reach (a list of items without an id, a QUERY search) is sent once.
    if (walk.covered.has(op.operationId) || (done.has(op.operationId) && !isReadMethod(op.method))) continue;
    const params = await paramsFor(walk, op);
    if (params) await walk.send({ op, label: op.operationId, params, body: bodyFor(op, walk.random) });
  }
  await cleanUp(walk);
  if (options.anonymous !== false)
    for (const op of spec.operations.filter((o) => o.requiresAuth)) {
      const params: Record<string, string> = {};
      for (const p of op.pathParamSpecs) params[p.name] = paramValue(p, walk.random);
      const body = bodyFor(op, walk.random);
      await walk.send({
        op,
        label: `${op.operationId} without credentials`,
        params,
        body,
        expect: [401],
        anonymous: true,
      });
    }
  return {
    steps: walk.steps,
    problems: walk.steps.flatMap((s) => s.problems.map((p) => `${s.label}: ${p}`)),
    covered: walk.covered,
  };
}

function newWalk(options: WalkOptions, spec: LoadedSpec): DocumentWalk {
  const judge = responseChecker(spec);
  const client: Client = createClient({
    target: options.baseUrl,
    key: options.key,
    spec,
    model: options.model,
    timeoutMs: 10_000,
    maxWaitMs: 30_000,
    reserve: 0,
    fetch: options.fetch,
  });
  const walk: DocumentWalk = {
    spec,
    model: options.model,
    random: seededRandom(17),
    steps: [],
    covered: new Set(),
    spare: [],
    under: new Map(),
    async send(call) {
      const out = walkRequest(call.op, call.params, walk.random, call);
      const result = await client.send(out);
      if (!result.exchange) return undefined;
      const step = stepOf(call, result.exchange, judge);
      if (result.kind === 'skipped') step.problems.push(`not judged: ${result.reason}`);
      if (!call.anonymous) walk.covered.add(call.op.operationId);
      walk.steps.push(step);
      return step;
    },
  };
  return walk;
}

/** The step of an exchange: the call's expectation, then every shared response check that failed. */
function stepOf(call: Call, ex: Exchange, judge: (ex: Exchange) => Finding[]): WalkStep {
  const res = ex.response;
  const text = ex.responseText ?? res?.body ?? '';
  const problems: string[] = [];
  if (!res) problems.push(`no response: ${ex.error ?? ''}`);
  else {
    const expected = call.expect ?? documentedSuccess(call.op);
    if (!expected.includes(res.status))
      problems.push(`status ${res.status}, expected ${expected.join(' or ')}: ${text.slice(0, 200)}`);
    if (res.status === 401 && !res.headers['www-authenticate'])
      problems.push('a 401 without WWW-Authenticate');
    for (const f of judge(ex)) if (f.outcome === 'fail') problems.push(`${f.ruleId}: ${f.problem ?? ''}`);
  }
  return {
    label: call.label,
    operationId: call.op.operationId,
    method: ex.request.method,
    url: ex.request.url,
    requestHeaders: ex.request.headers,
    requestBody: ex.request.body,
    status: res?.status ?? 0,
    responseHeaders: res?.headers ?? {},
    responseText: text,
    problems,
  };
}

/** The documented 2xx statuses, else the one a success defaults to. */
function documentedSuccess(op: OperationSpec): number[] {
  const success = successStatuses(op).map(Number);
  const fallback = successStatusOf(op);
  return success.length || fallback === undefined ? success : [fallback];
}

/** Path parameters of `op`: an item the walk creates where the path is under a resource's item path. */
async function paramsFor(walk: DocumentWalk, op: OperationSpec): Promise<Record<string, string> | undefined> {
  const params: Record<string, string> = {};
  const resource = walk.model.resources.find(
    (r) =>
      r.itemPath && r.operations.create && (op.path === r.itemPath || op.path.startsWith(`${r.itemPath}/`)),
  );
  if (resource?.itemParam) {
    const made = await createItem(walk, resource);
    if (!made) return undefined;
    Object.assign(params, keyParams(resource, made.id));
    if (resource.operations.remove) walk.spare.push({ resource, id: made.id });
  }
  for (const p of op.pathParamSpecs) params[p.name] ??= paramValue(p, walk.random);
  return params;
}

/** Delete what the walk made for operations that needed an item. */
async function cleanUp(walk: DocumentWalk): Promise<void> {
  for (const { resource, id } of walk.spare.splice(0)) {
    const remove = walk.spec.byId.get(resource.operations.remove ?? '');
    if (remove)
      await walk.send({
        op: remove,
        label: `${remove.operationId} (clean-up)`,
        params: itemParams(walk, resource, id),
      });
  }
}

/**
 * The document walk: every operation of a document called once, as a client of that document would, and each
 * answer judged against the document. With a valid key (placed as each operation's security requires: bearer,
 * basic user, apiKey header, query or cookie) and a request generated from the schemas (the documented example,
 * else openapi-sampler, else the runner's pattern-aware generator; ids from records the walk created), every
 * answer must be a documented 2xx whose body is valid against the schema documented for that status and content
 * type. Creates are read back, listed, changed (put, patch, put on the collection) and deleted where the document
 * has those operations, as spec/resources.ts infers them. Without credentials, every secured operation must
 * answer 401 with WWW-Authenticate. No code names a document: the same walk serves any of them
 * (test/wild-documents.test.ts, `npm run judge`).
 */
import { sample } from 'openapi-sampler';
import type { JSONSchema7 } from 'json-schema';
import {
  coerceParam,
  documentedResponse,
  successStatusOf,
  type CompiledSpec,
  type OperationSpec,
  type ParamSpec,
} from '../spec/compile';
import { innerSchema, mapItem, unwrap } from '../spec/envelope';
import type { Resource, ResourceModel } from '../spec/resources';
import { objectShape, type Schema } from '../spec/schema-shape';
import { withoutWriteOnly } from '../spec/schema-views';
import { seededRandom } from './send/check-context';
import { place, emptyPlacement, type Placement } from './send/credentials';
import { generateValid } from './generate/values';
import { jsonPatchOf } from './generate/json-patch';
import { mergePatchPlan } from './generate/merge-patch';
import { notFoundStatus, withQuerystring } from './generate/requests';
import type { FetchLike } from './types';
import { isObject } from '../spec/json';

export interface WalkOptions {
  spec: CompiledSpec;
  model: ResourceModel;
  /** The document's base URL on the target, e.g. `http://127.0.0.1:4010/api/v1`. */
  baseUrl: string;
  /** A key the target accepts under every scheme of the document. */
  key: string;
  fetch?: FetchLike;
  /** Also send each secured operation without credentials (default true). */
  anonymous?: boolean;
}

/** One call of the walk and what came back. */
export interface WalkStep {
  /** `createSpecialEvent`, `getSpecialEvent after delete`, `deleteBooking without credentials` … */
  label: string;
  operationId: string;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseText: string;
  /** What is wrong with the answer; empty when it is what the document says. */
  problems: string[];
}

export interface WalkResult {
  steps: WalkStep[];
  /** Every problem, prefixed with its step's label. */
  problems: string[];
  /** operationIds called with a valid key. */
  covered: Set<string>;
}

type Json = Record<string, unknown>;
const mediaBase = (type: string | null | undefined): string =>
  (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** Walk every operation of the document; see the module comment. */
export async function walkDocument(options: WalkOptions): Promise<WalkResult> {
  const walker = new Walker(options);
  await walker.run();
  return {
    steps: walker.steps,
    problems: walker.steps.flatMap((s) => s.problems.map((p) => `${s.label}: ${p}`)),
    covered: walker.covered,
  };
}

interface Call {
  op: OperationSpec;
  label: string;
  /** Path parameter values. */
  params: Record<string, string>;
  body?: unknown;
  /** Statuses the answer must have; default: the documented 2xx. */
  expect?: number[];
  anonymous?: boolean;
  /** Send the body as application/x-www-form-urlencoded (documented beside JSON). */
  form?: boolean;
}

const isFlat = (body: unknown): body is Json =>
  isObject(body) && Object.values(body).every((v) => v === null || typeof v !== 'object');
const documentsForm = (op: OperationSpec): boolean =>
  op.requestBody?.mediaTypes.some((t) => mediaBase(t) === 'application/x-www-form-urlencoded') === true;

class Walker {
  readonly steps: WalkStep[] = [];
  readonly covered = new Set<string>();
  private readonly random = seededRandom(17);
  private readonly fetch: FetchLike;
  /** Items created for operations that need one, deleted at the end. */
  private readonly spare: Array<{ resource: Resource; id: string }> = [];

  constructor(private readonly o: WalkOptions) {
    this.fetch = o.fetch ?? ((request) => globalThis.fetch(request));
  }

  private op(id: string | undefined): OperationSpec | undefined {
    return id ? this.o.spec.byId.get(id) : undefined;
  }

  async run(): Promise<void> {
    const done = new Set<string>();
    for (const resource of this.o.model.resources) {
      for (const id of Object.values(resource.operations)) if (id) done.add(id);
      await this.lifecycle(resource);
    }
    for (const op of this.o.spec.operations) {
      // A resource's operation its lifecycle did not reach (a list beside a create without an id, a search) too.
      if (done.has(op.operationId) && this.covered.has(op.operationId)) continue;
      const params = await this.paramsFor(op);
      if (!params) continue;
      await this.send({ op, label: op.operationId, params, body: this.bodyFor(op) });
    }
    for (const { resource, id } of this.spare.splice(0)) {
      const remove = this.op(resource.operations.remove);
      if (remove)
        await this.send({
          op: remove,
          label: `${remove.operationId} (clean-up)`,
          params: this.item(resource, id),
        });
    }
    if (this.o.anonymous !== false) await this.anonymousCalls();
  }

  /** The path parameters of one item (and of the parent item a sub-collection's items live under). */
  private item(resource: Resource, id: string): Record<string, string> {
    const under = this.under.get(resource) ?? {};
    return resource.itemParam ? { ...under, [resource.itemParam]: id } : { ...under };
  }

  /** A sub-collection's parent item (`{slug}` of `/articles/{slug}/comments`), created once for the walk. */
  private readonly under = new Map<Resource, Record<string, string>>();

  private async parentOf(resource: Resource): Promise<boolean> {
    const parent = this.o.model.resources.find((r) => r.name === resource.parent?.name);
    if (!resource.parent || this.under.has(resource)) return true;
    if (!parent?.operations.create) return false;
    const made = await this.create(parent, parent.operations.create);
    if (!made) return false;
    if (parent.operations.remove) this.spare.push({ resource: parent, id: made.id });
    this.under.set(resource, { ...this.item(parent, made.id), [resource.parent.param]: made.id });
    return true;
  }

  /** Create, read back, list, change, delete and read again: the steps the document has. */
  private async lifecycle(resource: Resource): Promise<void> {
    const create = this.op(resource.operations.create);
    if (!create || !(await this.parentOf(resource))) return;
    const made = await this.create(resource, create.operationId);
    if (!made || !resource.idField) return;
    const { id, item } = made;
    const params = this.item(resource, id);
    const read = this.op(resource.operations.read);
    const expectSame = (step: WalkStep | undefined, fields: Json, what: string) => {
      const body =
        step && step.status < 300 ? unwrap(parse(step.responseText), resource.envelope) : undefined;
      if (!step || step.status >= 300) return;
      if (!isObject(body)) return step.problems.push(`${what}: the answer is not an object`);
      for (const [name, value] of Object.entries(fields))
        if (JSON.stringify(body[name]) !== JSON.stringify(value))
          step.problems.push(
            `${what}: ${name} is ${JSON.stringify(body[name])}, expected ${JSON.stringify(value)}`,
          );
    };
    const itemFields = (wrapped: unknown): Json => {
      const sent = unwrap(wrapped, resource.envelope);
      const named = objectShape(resource.itemSchema)?.properties ?? {};
      const fields = isObject(sent)
        ? Object.fromEntries(Object.entries(sent).filter(([k]) => k in named))
        : {};
      // What the answer never carries (a writeOnly password) is not expected back.
      return withoutWriteOnly(resource.itemSchema, fields) as Json;
    };
    if (read) {
      const step = await this.send({ op: read, label: `${read.operationId} (read back)`, params });
      expectSame(step, { ...itemFields(made.sent), [resource.idField]: item[resource.idField] }, 'read back');
    }
    const list = this.op(resource.operations.list);
    if (list) {
      const step = await this.send({
        op: list,
        label: `${list.operationId} (listed)`,
        params: this.item(resource, ''),
      });
      const body = step ? parse(step.responseText) : undefined;
      const items = Array.isArray(body)
        ? body
        : resource.listEnvelope && isObject(body)
          ? body[resource.listEnvelope.property]
          : undefined;
      if (
        step &&
        step.status < 300 &&
        !(Array.isArray(items) && items.some((i) => isObject(i) && String(i[resource.idField ?? '']) === id))
      )
        step.problems.push(`the created item ${id} is not in the list`);
    }
    // The item as the server last answered it: a JSON Patch tests its members at these values.
    let current: Json = item;
    for (const action of ['replace', 'patch', 'update'] as const) {
      const op = this.op(resource.operations[action]);
      if (!op) continue;
      const json = action === 'patch' && resource.jsonPatch === true;
      const change = json ? this.jsonPatchFor(resource, current) : undefined;
      let body = change ? change.body : this.bodyFor(op, action === 'patch' ? undefined : resource, true);
      const idField = resource.idField;
      if (action === 'update')
        body = mapItem(body, resource.envelope, (b) => ({ ...b, [idField]: item[idField] }));
      const step = await this.send({
        op,
        label: `${op.operationId} (${action})`,
        params: action === 'update' ? {} : params,
        body,
      });
      const answered =
        step && step.status < 300 ? unwrap(parse(step.responseText), resource.envelope) : undefined;
      if (isObject(answered)) current = answered;
      if (read && step && step.status < 300) {
        const back = await this.send({ op: read, label: `${read.operationId} (after ${action})`, params });
        expectSame(back, change ? change.expected : itemFields(body), `after ${action}`);
      }
    }
    const remove = this.op(resource.operations.remove);
    // A create documented as a form too: once more as a form, read back as what was sent.
    if (documentsForm(create) && create.requestBody?.kind === 'json' && isFlat(made.sent)) {
      const step = await this.send({
        op: create,
        label: `${create.operationId} (create, form)`,
        params: this.item(resource, ''),
        body: made.sent,
        form: true,
      });
      const formItem = step && step.status < 300 ? parse(step.responseText) : undefined;
      const formId = isObject(formItem) ? formItem[resource.idField] : undefined;
      if (step && step.status < 300 && (typeof formId === 'string' || typeof formId === 'number')) {
        if (read) {
          const back = await this.send({
            op: read,
            label: `${read.operationId} (read back, form)`,
            params: this.item(resource, String(formId)),
          });
          expectSame(back, itemFields(made.sent), 'read back after a form create');
        }
        if (remove) this.spare.push({ resource, id: String(formId) });
      }
    }
    if (remove) {
      await this.send({ op: remove, label: `${remove.operationId} (delete)`, params });
      if (read)
        await this.send({
          op: read,
          label: `${read.operationId} (after delete)`,
          params,
          expect: [notFoundStatus(read)],
        });
    }
  }

  /** A JSON Patch (RFC 6902) changing one member a client may set, and the members it must then have. */
  private jsonPatchFor(resource: Resource, current: Json): { body: unknown; expected: Json } | undefined {
    const writable = this.op(resource.operations.replace ?? resource.operations.create)?.requestBody?.schema;
    const schema = innerSchema(writable, resource.envelope) ?? {};
    const plan = mergePatchPlan(schema, resource, current, this.random, 'walk')[0];
    if (!plan) return undefined;
    return { body: jsonPatchOf(plan.patch, current), expected: plan.patch };
  }

  /** POST a generated body; the id of what was stored, or undefined (the step says why). */
  private async create(
    resource: Resource,
    operationId: string,
  ): Promise<{ id: string; item: Json; sent: unknown } | undefined> {
    const op = this.op(operationId) as OperationSpec;
    const sent = this.bodyFor(op, resource);
    const step = await this.send({
      op,
      label: `${op.operationId} (create)`,
      params: this.item(resource, ''),
      body: sent,
    });
    if (!step || step.status >= 300) return undefined;
    const item = unwrap(parse(step.responseText), resource.envelope);
    if (!isObject(item)) {
      step.problems.push('the create answered no object');
      return undefined;
    }
    if (!resource.idField) return { id: '', item, sent };
    const id = item[resource.idField];
    if (typeof id !== 'string' && typeof id !== 'number') {
      step.problems.push(`the created item has no ${resource.idField}`);
      return undefined;
    }
    return { id: String(id), item, sent };
  }

  /** Path parameters of `op`: an item the walk creates where the path is under a resource's item path. */
  private async paramsFor(op: OperationSpec): Promise<Record<string, string> | undefined> {
    const params: Record<string, string> = {};
    const resource = this.o.model.resources.find(
      (r) =>
        r.itemPath && r.operations.create && (op.path === r.itemPath || op.path.startsWith(`${r.itemPath}/`)),
    );
    if (resource?.itemParam) {
      const made = await this.create(resource, resource.operations.create as string);
      if (!made) return undefined;
      params[resource.itemParam] = made.id;
      if (resource.operations.remove) this.spare.push({ resource, id: made.id });
    }
    for (const p of op.pathParamSpecs) params[p.name] ??= String(this.value(p));
    return params;
  }

  /** A value valid against a parameter's schema: its example or default, else the sampler, else generated. */
  private value(p: ParamSpec): unknown {
    const s = p.schema as Schema & { default?: unknown; examples?: unknown[]; example?: unknown };
    const candidates = [
      s.default,
      s.examples?.[0],
      s.example,
      safeSample(p.schema),
      generateValid(p.schema, this.random, 'walk'),
    ];
    for (const c of candidates) {
      if (c === undefined || c === null) continue;
      const text = Array.isArray(c) ? c.join(',') : String(c);
      if (p.validate(coerceParam(p.schema, text))) return text;
    }
    return String(candidates[4]);
  }

  /**
   * A valid body: the documented example, else the sampler's, else one generated (every property). A change
   * (`change`: replace, patch, update) tries the generated one first, so that it differs from what was created.
   */
  private bodyFor(op: OperationSpec, resource?: Resource, change = false): unknown {
    const rb = op.requestBody;
    if (!rb) return undefined;
    const generated = generateValid(rb.schema, this.random, 'walk', { full: true });
    const candidates = change
      ? [generated, safeSample(rb.schema, true)]
      : [rb.example, safeSample(rb.schema, true), generated];
    for (const c of candidates) {
      if (c === undefined) continue;
      // Leave out an id the client may send: the server assigns one, so walks never collide. An example that
      // is the answer's too (one file for both) carries the server's readOnly values: a client leaves them out.
      const idField = resource?.idField;
      const leaveOut = [
        ...(resource?.readOnly ?? []),
        ...(resource?.idSource === 'client' && idField ? [idField] : []),
      ];
      const body = leaveOut.length
        ? mapItem(c, resource?.envelope, (item) => leaveOut.reduce<Json>((o, name) => omit(o, name), item))
        : c;
      if (rb.validate(body)) return body;
    }
    return generated;
  }

  private async anonymousCalls(): Promise<void> {
    for (const op of this.o.spec.operations) {
      if (!op.requiresAuth) continue;
      const params: Record<string, string> = {};
      for (const p of op.pathParamSpecs) params[p.name] = String(this.value(p));
      await this.send({
        op,
        label: `${op.operationId} without credentials`,
        params,
        body: this.bodyFor(op),
        expect: [401],
        anonymous: true,
      });
    }
  }

  private credentials(op: OperationSpec): Placement {
    const into = emptyPlacement();
    const requirement = op.security[0] ?? [];
    for (const name of requirement) place(this.o.spec.securitySchemes[name], this.o.key, into);
    return into;
  }

  /** Send one call and judge the answer against the document. */
  private async send(call: Call): Promise<WalkStep | undefined> {
    const { op } = call;
    // An OpenAPI 3.2 `in: querystring` parameter: the whole query string, valid by its schema.
    let path = withQuerystring(op, op.path);
    for (const [name, value] of Object.entries(call.params))
      path = path.replace(`{${name}}`, encodeURIComponent(value));
    const url = new URL(`${this.o.baseUrl.replace(/\/+$/, '')}${path}`);
    for (const p of op.queryParams) if (p.required) url.searchParams.set(p.name, String(this.value(p)));
    const creds = call.anonymous ? emptyPlacement() : this.credentials(op);
    for (const [name, value] of Object.entries(creds.query)) url.searchParams.set(name, value);
    const headers: Record<string, string> = { Accept: 'application/json', ...creds.headers };
    for (const p of op.headerParams) if (p.required) headers[p.name] = String(this.value(p));
    let body: string | undefined;
    if (call.body !== undefined && op.requestBody) {
      const json = op.requestBody.mediaTypes.find((t) => /[/+]json$/i.test(mediaBase(t)));
      if (!call.form && (json || op.requestBody.kind !== 'form')) {
        headers['Content-Type'] = json ?? 'application/json';
        body = JSON.stringify(call.body);
      } else {
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
        body = formEncode(call.body);
      }
    }
    const response = await this.fetch(
      new Request(url.href, { method: op.method.toUpperCase(), headers, body }),
    );
    const responseText = await response.text();
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((v, k) => (responseHeaders[k] = v));
    const step: WalkStep = {
      label: call.label,
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      url: url.href,
      requestHeaders: headers,
      requestBody: body,
      status: response.status,
      responseHeaders,
      responseText,
      problems: judge(op, call, response.status, responseHeaders, responseText),
    };
    if (!call.anonymous) this.covered.add(op.operationId);
    this.steps.push(step);
    return step;
  }
}

/** What is wrong with an answer: its status, content type, body, and for a refusal its challenge. */
function judge(
  op: OperationSpec,
  call: Call,
  status: number,
  headers: Record<string, string>,
  text: string,
): string[] {
  const problems: string[] = [];
  const success = [...op.responses.keys()].filter((s) => /^2\d\d$/.test(s)).map(Number);
  const fallback = successStatusOf(op);
  const expected = call.expect ?? (success.length || fallback === undefined ? success : [fallback]);
  if (!expected.includes(status))
    problems.push(`status ${status}, expected ${expected.join(' or ')}: ${text.slice(0, 200)}`);
  const documented = documentedResponse(op, status);
  if (status === 401 && !headers['www-authenticate']) problems.push('a 401 without WWW-Authenticate');
  if (!documented) {
    // A secured operation's security documents its 401; anything else must be in responses.
    if (!(status === 401 && op.requiresAuth)) problems.push(`status ${status} is not documented`);
    return problems;
  }
  if (documented.mediaTypes.length === 0 || status === 204) {
    if (text !== '') problems.push(`a body where ${status} documents none`);
    return problems;
  }
  const type = mediaBase(headers['content-type']);
  if (!documented.mediaTypes.some((t) => mediaBase(t) === type))
    problems.push(`Content-Type ${type || 'missing'}, documented: ${documented.mediaTypes.join(', ')}`);
  if (documented.validateBody && documented.contentType && mediaBase(documented.contentType) === type) {
    const body = parse(text);
    if (body === undefined) problems.push('the body is not JSON');
    else if (!documented.validateBody(body))
      problems.push(
        `body invalid against the ${status} schema: ${(documented.validateBody.errors ?? [])
          .slice(0, 3)
          .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
          .join('; ')}`,
      );
  }
  return problems;
}

function parse(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function omit(o: Json, name: string): Json {
  const out = { ...o };
  delete out[name];
  return out;
}

function safeSample(schema: Schema, full = false): unknown {
  try {
    return sample(schema as JSONSchema7, {
      skipReadOnly: true,
      skipWriteOnly: false,
      skipNonRequired: !full,
      quiet: true,
    });
  } catch {
    return undefined;
  }
}

/** A flat object as application/x-www-form-urlencoded (nested values as JSON text). */
function formEncode(body: unknown): string {
  const form = new URLSearchParams();
  if (isObject(body))
    for (const [k, v] of Object.entries(body)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  return form.toString();
}

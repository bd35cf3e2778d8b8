/**
 * A small faithful server of any document that follows the resource conventions (here the second document,
 * fixtures/specs/petstore-full.yaml), as a fetch handler `(Request) => Promise<Response>`: stateful CRUD from
 * spec/resources.ts, bearer keys, X-RateLimit-* headers, 401/404/405/415/400 Error bodies. One fault at a time
 * turns it into a deliberately broken server.
 */
import { formatAjvErrors, loadSpecOrThrow, type LoadedSpec, type OperationSpec } from '../../spec/load';
import { inferResources, type Binding } from '../../spec/resources';
import { objectShape } from '../../spec/schema-shape';
import type { FetchLike } from '../../conformance/types';

export type CrudFault =
  | 'delete-nothing'
  | 'patch-replaces'
  | 'unknown-id-200'
  | 'create-accepts-missing-required'
  | 'replace-not-stored'
  | 'read-other-item'
  | 'read-only-stored'
  | 'read-only-ignored';

export interface CrudServerOptions {
  fault?: CrudFault;
  /** key -> requests per minute. */
  keys?: Record<string, number>;
  /** Requests per minute of callers without a valid key (default 1000). */
  anonymousLimit?: number;
  /** Where the key is read from (default: `Authorization: Bearer`), for documents with other schemes. */
  credential?: (req: Request) => string | undefined;
}

/** The credential readers of the schemes the tests use. */
export const CREDENTIALS = {
  bearer: (req: Request) => /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1],
  basicUser: (req: Request) => {
    const b64 = /^Basic (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1];
    return b64 ? Buffer.from(b64, 'base64').toString('utf8').split(':')[0] : undefined;
  },
  query: (name: string) => (req: Request) => new URL(req.url).searchParams.get(name) ?? undefined,
  header: (name: string) => (req: Request) => req.headers.get(name) ?? undefined,
  cookie: (name: string) => (req: Request) =>
    new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(req.headers.get('cookie') ?? '')?.[1],
};

type Item = Record<string, unknown>;
interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const WINDOW_MS = 60_000;
const error = (status: number, code: string, message: string, headers?: Record<string, string>): Reply => ({
  status,
  body: { code, message, status },
  headers,
});

/** A fetch handler serving `specFile` under `/v1` of any host. */
export async function createCrudHandler(
  specFile: string,
  options: CrudServerOptions = {},
): Promise<FetchLike> {
  const spec = await loadSpecOrThrow(specFile);
  const inferred = inferResources(spec);
  if (!inferred.ok) throw new Error(inferred.error);
  const { byOperation } = inferred.model;
  const keys = options.keys ?? { 'good-key': 1000, 'quota-key': 60 };
  const stores = new Map<string, Map<string, Item>>();
  const windows = new Map<string, { start: number; used: number }>();
  let nextId = 1;
  const fault = options.fault;

  function handle(op: OperationSpec, binding: Binding | undefined, params: string[], body: unknown): Reply {
    if (!binding) return { status: 200, body: [] };
    const { resource, action } = binding;
    const store = stores.get(resource.name) ?? new Map<string, Item>();
    stores.set(resource.name, store);
    const id = params[params.length - 1] ?? '';
    const idField = resource.idField ?? 'id';
    if (action === 'create') {
      const item = { [idField]: nextId++, ...(body as Item) };
      store.set(String(item[idField]), item);
      return { status: 201, body: item };
    }
    if (action === 'list') return { status: 200, body: [...store.values()] };
    const found = store.get(id);
    if (!found)
      return fault === 'unknown-id-200'
        ? { status: 200, body: {} }
        : error(404, 'not_found', `No ${resource.name} ${id}.`);
    if (action === 'read') {
      const other = [...store.values()].find((i) => i !== found);
      return {
        status: 200,
        body: fault === 'read-other-item' ? (other ?? { ...found, [idField]: Number(id) + 1 }) : found,
      };
    }
    if (action === 'remove') {
      if (fault !== 'delete-nothing') store.delete(id);
      return { status: 204 };
    }
    const next: Item =
      action === 'patch' && fault !== 'patch-replaces'
        ? mergePatch(found, body as Item)
        : mergePatch({ [idField]: found[idField] }, body as Item);
    if (fault !== 'replace-not-stored' || action !== 'replace') store.set(id, next);
    return { status: 200, body: next };
  }

  function checkBody(
    op: OperationSpec,
    binding: Binding | undefined,
    contentType: string,
    raw: string,
  ): Reply | { body: unknown } {
    const rb = op.requestBody;
    // A body where the operation documents none: refused as the house decides (docs/petstore-decisions.md).
    if (!rb && raw !== '' && contentType !== '')
      return error(415, 'unsupported_media_type', 'This operation takes no request body.');
    if (!rb) return { body: undefined };
    const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (!rb.mediaTypes.includes(base))
      return error(415, 'unsupported_media_type', `Send ${rb.mediaTypes.join(' or ')}.`);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return error(400, 'invalid_json', 'The body is not JSON.');
    }
    const skipRequired = fault === 'create-accepts-missing-required' && binding?.action === 'create';
    if (!rb.validate(body)) {
      const errors = (rb.validate.errors ?? []).filter((e) => !(skipRequired && e.keyword === 'required'));
      if (errors.length > 0) return error(400, 'invalid_request', formatAjvErrors(errors));
    }
    const readOnlyNames = binding?.resource.readOnly ?? [];
    // read-only-stored: a readOnly property is taken as sent and stored (the id too); read-only-ignored: dropped.
    if (fault === 'read-only-ignored' && isItem(body))
      body = Object.fromEntries(Object.entries(body).filter(([k]) => !readOnlyNames.includes(k)));
    const shape = objectShape(rb.schema);
    const known = new Set(Object.keys(shape?.properties ?? {}));
    if (fault === 'read-only-stored') for (const k of readOnlyNames) known.add(k);
    const unknown = Object.keys(body as Item).find((k) => !known.has(k));
    if (unknown) return error(400, 'invalid_request', `/${unknown} is not allowed`);
    const readOnly = readOnlyNames.find((k) => k in (body as Item));
    if (readOnly && fault !== 'read-only-stored')
      return error(400, 'invalid_request', `/${readOnly} is read-only`);
    return { body };
  }

  function route(req: Request, path: string, raw: string): Reply {
    if (!path.startsWith('/v1/')) return error(404, 'not_found', `No resource at ${path}.`);
    const rest = path.slice('/v1'.length);
    const method = req.method.toLowerCase();
    const onPath = spec.operations.filter((o) => o.pathPattern.test(rest));
    const op = onPath.find((o) => o.method === method);
    if (!op) {
      if (onPath.length === 0) return error(404, 'not_found', `No resource at ${path}.`);
      const allow = onPath.map((o) => o.method.toUpperCase()).join(', ');
      return error(405, 'method_not_allowed', `${req.method} is not allowed here.`, { Allow: allow });
    }
    const params = (op.pathPattern.exec(rest) ?? []).slice(1).map(decodeURIComponent);
    const binding = byOperation.get(op.operationId);
    const checked = checkBody(op, binding, req.headers.get('content-type') ?? '', raw);
    if ('status' in checked) return checked;
    return handle(op, binding, params, checked.body);
  }

  return async function crudHandler(req: Request): Promise<Response> {
    const now = Date.now();
    const token = (options.credential ?? CREDENTIALS.bearer)(req) || undefined;
    const known = token !== undefined && token in keys;
    const identity = known ? `key:${token}` : 'anonymous';
    const limit = known ? (keys[token] ?? 60) : (options.anonymousLimit ?? 1000);
    let w = windows.get(identity);
    if (!w || now >= w.start + WINDOW_MS) w = { start: now, used: 0 };
    windows.set(identity, w);
    w.used += 1;
    const reset = Math.ceil((w.start + WINDOW_MS) / 1000);
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - w.used)),
      'X-RateLimit-Reset': String(reset),
    };
    const path = new URL(req.url).pathname;
    const raw = await req.text();
    let reply: Reply;
    if (w.used > limit)
      reply = error(429, 'rate_limited', 'Rate limit exceeded.', {
        'Retry-After': String(Math.max(1, reset - Math.floor(now / 1000))),
      });
    else if (!known) reply = error(401, 'unauthorized', 'The API key is missing or invalid.');
    else reply = route(req, path, raw);
    const body = reply.body === undefined ? null : JSON.stringify(reply.body);
    if (body !== null) headers['Content-Type'] = 'application/json';
    return new Response(body, { status: reply.status, headers: { ...headers, ...reply.headers } });
  };
}

const isItem = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7396: null removes a member, anything else replaces it. */
function mergePatch(target: Item, patch: Item): Item {
  const out: Item = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

export type { LoadedSpec };

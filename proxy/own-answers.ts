/**
 * Every answer the proxy sends of its own (an enforce-mode refusal, an upstream failure, HTTP that Node refused
 * before it became a request): the document's error answer for that status, in its error shape, with every
 * header the document requires for it (the pet store's `X-RateLimit-*`) and `WWW-Authenticate` on a 401.
 * Required header values are the upstream's own last ones for that caller (its credential, else its address,
 * else anyone's latest); before the upstream sent any, a value the header's schema accepts.
 */
import crypto, { createHash } from 'node:crypto';
import type http from 'node:http';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { HeaderSpec, OperationSpec, ResponseSpec } from '../spec/compile';
import type { LoadedSpec } from '../spec/load';
import { createErrorShaper } from '../spec/error-shape';
import { ERROR_CODES, type ErrorCode } from '../spec/error-codes';

/** An answer ready to write: status, headers and the body bytes. */
export interface OwnAnswer {
  status: number;
  headers: Record<string, string | number>;
  body: Uint8Array;
}

/** Callers whose last upstream header values are remembered (oldest forgotten first). */
const MAX_CALLERS = 1000;

/** The documented response of `op` for `status`: exact, then `4XX`, then `default`. */
const documented = (op: OperationSpec | undefined, status: number): ResponseSpec | undefined =>
  op?.responses.get(String(status)) ??
  op?.responses.get(`${String(status)[0]}XX`) ??
  op?.responses.get('default');

/** A value a header's schema accepts, for a header the proxy must send before it saw the upstream's. */
function sampleHeader(schema: OpenAPIV3_1.SchemaObject): string {
  const s = schema as OpenAPIV3_1.SchemaObject & { examples?: unknown[] };
  const value = s.example ?? s.examples?.[0] ?? s.default ?? s.enum?.[0];
  if (value !== undefined) return String(value);
  if (s.type === 'integer' || s.type === 'number') return String(s.minimum ?? 0);
  if (s.type === 'boolean') return 'false';
  return s.minLength ? 'x'.repeat(s.minLength) : '';
}

/**
 * A caller's credential kept only as its SHA-256 (never the credential itself). Once per answer: Node's one-shot
 * `crypto.hash` (20.12 and later) where it exists, which builds no Hash object.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string })
  .hash;
const digest = (text: string): string =>
  oneShot ? oneShot('sha256', text, 'base64url') : createHash('sha256').update(text).digest('base64url');

/** Build the proxy's answer maker for one document. */
export function createOwnAnswers(spec: LoadedSpec) {
  const shaper = createErrorShaper(spec);
  const schemes = (spec.document.components?.securitySchemes ?? {}) as Record<
    string,
    OpenAPIV3_1.SecuritySchemeObject
  >;
  /** Per status, the required headers the document gives some operation's answer of it (Node-level errors). */
  const anyOp = new Map<number, HeaderSpec[]>();
  const headersFor = (op: OperationSpec | undefined, status: number): HeaderSpec[] => {
    const own = documented(op, status);
    if (own) return own.headers.filter((h) => h.required);
    let found = anyOp.get(status);
    if (!found) {
      found = [];
      for (const o of spec.operations) {
        const r = documented(o, status);
        if (r?.headers.some((h) => h.required)) {
          found = r.headers.filter((h) => h.required);
          break;
        }
      }
      anyOp.set(status, found);
    }
    return found;
  };
  const seen = new Map<string, Record<string, string>>();
  /** Whose values `seen` took last (their entries are its newest three). */
  let lastCaller: { caller: string; address: string; addressKey: string } | undefined;
  /**
   * Per connection, its last credential's digest: a kept-alive caller is hashed once per connection, not once
   * per answer. The credential is held with its connection only (as Node's parser holds the headers), never
   * in the callers' table.
   */
  const onConnection = new WeakMap<object, { credential: string; digest: string }>();
  const callerOf = (headers: http.IncomingHttpHeaders, address: string, connection?: object): string => {
    const credential = String(headers.authorization ?? headers['x-api-key'] ?? address);
    const last = connection && onConnection.get(connection);
    if (last && last.credential === credential) return last.digest;
    const caller = digest(credential);
    if (connection) onConnection.set(connection, { credential, digest: caller });
    return caller;
  };
  const challenge = (op: OperationSpec | undefined): string => {
    const name = op?.security[0]?.[0] ?? Object.keys(schemes)[0];
    return challengeOf(name === undefined ? undefined : schemes[name]);
  };

  return {
    /**
     * Note the upstream's values of every header the document requires somewhere, for this caller
     * (`connection`: the socket it asked on, so that its credential is hashed once per connection).
     */
    remember(
      req: http.IncomingHttpHeaders,
      address: string,
      up: http.IncomingHttpHeaders,
      connection?: object,
    ): void {
      const values: Record<string, string> = {};
      let any = false;
      for (const name of requiredNames(spec)) {
        const v = up[name];
        if (v === undefined) continue;
        values[name] = Array.isArray(v) ? v.join(', ') : v;
        any = true;
      }
      if (!any) return;
      const caller = callerOf(req, address, connection);
      // The caller of the last answer again (a run of answers to one client): its three entries are the newest
      // already, so they only take the new values; no reordering, no key string built.
      if (lastCaller?.caller === caller && lastCaller.address === address) {
        seen.set(caller, values).set(lastCaller.addressKey, values).set('*', values);
        return;
      }
      const addressKey = `address ${address}`;
      // By credential, by address (for HTTP refused before its headers were read), and the latest of all.
      for (const key of [caller, addressKey, '*']) {
        seen.delete(key);
        if (seen.size >= MAX_CALLERS) seen.delete(seen.keys().next().value as string);
        seen.set(key, values);
      }
      lastCaller = { caller, address, addressKey };
    },
    /** The proxy's own answer for `status` on `op` (undefined: no operation, as for malformed HTTP). */
    render(
      op: OperationSpec | undefined,
      status: number,
      code: ErrorCode,
      message: string,
      caller?: { headers?: http.IncomingHttpHeaders; address: string; connection?: object },
    ): OwnAnswer {
      const { contentType, body } = shaper.renderBytes(op, status, { code, message });
      const last =
        (caller?.headers && seen.get(callerOf(caller.headers, caller.address, caller.connection))) ??
        (caller && seen.get(`address ${caller.address}`)) ??
        seen.get('*');
      const headers: Record<string, string | number> = {};
      for (const h of headersFor(op, status))
        headers[h.name] = last?.[h.name.toLowerCase()] ?? sampleHeader(h.schema);
      if (status === 401 && !Object.keys(headers).some((n) => n.toLowerCase() === 'www-authenticate'))
        headers['WWW-Authenticate'] = challenge(op);
      if (status === 503 || status === 429) headers['Retry-After'] ??= '1';
      headers['Content-Type'] = contentType;
      headers['Content-Length'] = body.byteLength;
      return { status, headers, body };
    },
  };
}

export type OwnAnswers = ReturnType<typeof createOwnAnswers>;

/** RFC 9110 §11.6.1: the challenge of a 401 for the scheme the operation asks for (Bearer when none is named). */
function challengeOf(s: OpenAPIV3_1.SecuritySchemeObject | undefined): string {
  if (s?.type === 'http' && s.scheme?.toLowerCase() === 'basic') return 'Basic realm="api", charset="UTF-8"';
  if (s?.type === 'apiKey') return `ApiKey realm="api", ${s.in}="${s.name}"`;
  return 'Bearer realm="api"';
}

const names = new WeakMap<LoadedSpec, string[]>();
/** Lower-cased names of every header the document requires on some answer. */
function requiredNames(spec: LoadedSpec): string[] {
  let out = names.get(spec);
  if (!out) {
    const set = new Set<string>();
    for (const op of spec.operations)
      for (const r of op.responses.values())
        for (const h of r.headers) if (h.required) set.add(h.name.toLowerCase());
    names.set(spec, (out = [...set]));
  }
  return out;
}

/** The catalogue's code for a status the proxy answers with. */
export function codeFor(status: number): ErrorCode {
  const found = (Object.entries(ERROR_CODES) as Array<[ErrorCode, number]>).find(([, s]) => s === status);
  return found?.[0] ?? 'bad_request';
}

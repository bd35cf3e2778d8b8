/**
 * The runner's only way to the target: builds the request (credentials where the document's security schemes
 * put them), paces it per identity (§8), sends it, records a masked exchange for the check stage, the report
 * and the HAR file, and notes what the run created so that it can be deleted at the end.
 */
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import type { ResourceModel } from '../../spec/resources';
import { operationFor } from '../../spec/http/match';
import { missingRequired } from './required-params';
import { isReadMethod } from '../../spec/methods';
import { maskHeaderValues, maskKnownSecrets, maskUrlSecrets } from '../../spec/mask';
import type { Exchange, FetchLike, RecordedResponse } from '../types';
import { emptyPlacement, place, secretNames, type Placement, type SecurityScheme } from './credentials';
import { createdItems, type CreatedItems } from './created';
import { sendHttp } from './http';
import { decideWait, INITIAL_PACE, noteSent, observeResponse, type PaceState } from './pacer';

/**
 * `key`/`quota`: that key, placed as the operation's first security requirement says; `none`: no credential;
 * `raw`: this exact Authorization value; `as`: `value` placed under each of these schemes; `key-as`: the key
 * placed under these schemes (a scheme the operation does not accept, for the auth matrix).
 */
export type Auth =
  | { use: 'key' }
  | { use: 'quota' }
  | { use: 'none' }
  | { use: 'raw'; value: string }
  | { use: 'as'; schemes: SecurityScheme[]; value: string }
  | { use: 'key-as'; schemes: SecurityScheme[] };

export interface Outgoing {
  method: string;
  /** Path under the target (`/books`), or `url` for an absolute address. */
  path?: string;
  url?: string;
  query?: Record<string, string>;
  auth: Auth;
  headers?: Record<string, string>;
  body?: string;
  expects429?: boolean;
  outsideContract?: boolean;
  /**
   * Send the query and headers exactly as given: a case about a parameter itself. Otherwise every required query
   * and header parameter of the operation the request does not name is filled in (send/required-params.ts).
   */
  exact?: boolean;
  /** Why the body cannot be built as the operation documents it (generate/encode-body.ts): skipped, not sent. */
  unbuildable?: string;
  /**
   * The operation the runner built the request for. The exchange is the operation the document's matcher finds
   * (a literal path wins, as a router's does); where it finds none (a path value left empty), it is this one's:
   * a call of it by the runner's intent, its answer judged and counted as that operation's.
   */
  operation?: string;
}

export type SendResult =
  | { kind: 'response'; exchange: Exchange; response: RecordedResponse }
  | { kind: 'error'; exchange: Exchange }
  | { kind: 'skipped'; reason: string; exchange?: Exchange };

export interface ClientOptions {
  target: string;
  key: string;
  quotaKey?: string;
  spec: LoadedSpec;
  model: ResourceModel;
  timeoutMs: number;
  maxWaitMs: number;
  reserve: number;
  readOnly?: boolean;
  fetch?: FetchLike;
  onWait?: (ms: number, why: string) => void;
  /**
   * Each exchange once it is complete (answered or failed), in the order they complete: the run judges it,
   * counts it and records it here; the client itself keeps none.
   */
  onExchange?: (exchange: Exchange) => void;
}

const EXCERPT = 1000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Client {
  send(out: Outgoing): Promise<SendResult>;
  readonly target: string;
  /** What the run created and has not deleted yet. */
  readonly created: CreatedItems;
}

/** `--read-only` refuses every method but GET, HEAD and OPTIONS. */
export const isWrite = (method: string): boolean => !isReadMethod(method);

/** Build a client; every exchange it makes goes to `options.onExchange` once complete. */
export function createClient(options: ClientOptions): Client {
  const pace = new Map<string, PaceState>();
  const secrets = [options.key, options.quotaKey ?? ''].filter((s) => s.length > 0);
  const names = secretNames(options.spec.securitySchemes);
  const basePath = new URL(options.target).pathname.replace(/\/+$/, '');
  const created = createdItems(options.model);

  return {
    target: options.target,
    created,
    async send(out: Outgoing): Promise<SendResult> {
      if (out.unbuildable !== undefined) return { kind: 'skipped', reason: out.unbuildable };
      if (options.readOnly && isWrite(out.method))
        return { kind: 'skipped', reason: `--read-only: ${out.method.toUpperCase()} is not sent` };
      const identity = out.auth.use === 'key' || out.auth.use === 'quota' ? out.auth.use : 'anonymous';
      // A quota burst (expects429) is deliberate and not paced; everything else is.
      const { waitMs, why } = out.expects429
        ? { waitMs: 0, why: '' }
        : decideWait(pace.get(identity) ?? INITIAL_PACE, Date.now(), options.reserve);
      if (waitMs > options.maxWaitMs)
        return { kind: 'skipped', reason: `rate-limited: ${why}; waiting ${waitMs} ms exceeds --max-wait` };
      if (waitMs > 0) {
        options.onWait?.(waitMs, why);
        await sleep(waitMs);
      }
      pace.set(identity, noteSent(pace.get(identity) ?? INITIAL_PACE));
      const base = out.url ?? `${options.target.replace(/\/+$/, '')}${out.path ?? ''}`;
      const addressed = new URL(withQuery(base, out.query ?? {}));
      const op =
        operationFor(options.spec, basePath, out.method, addressed.pathname, addressed.search.slice(1)) ??
        (out.operation === undefined ? undefined : options.spec.byId.get(out.operation));
      const creds = credentialsOf(out.auth, op, options);
      const filled = out.exact
        ? { query: {}, headers: {} }
        : missingRequired(op, {
            // A credential's place is the credentials' (a probe without a key sends none on purpose).
            query: (name) => addressed.searchParams.has(name) || names.query.has(name),
            headers: { ...out.headers, ...Object.fromEntries([...names.headers].map((h) => [h, ''])) },
          });
      const url = withQuery(base, { ...filled.query, ...out.query, ...creds.query });
      const headers = { ...filled.headers, ...out.headers, ...creds.headers };
      const sentAt = Date.now();
      const result = await sendHttp(
        { method: out.method, url, headers, body: out.body },
        options.timeoutMs,
        options.fetch,
      );
      const exchange: Exchange = {
        request: {
          method: out.method,
          url: maskUrlSecrets(url, names.query, secrets),
          headers: maskHeaderValues(headers, names.headers, secrets),
          body: out.body === undefined ? undefined : maskKnownSecrets(out.body, secrets),
        },
        operationId: op?.operationId,
        sentAt,
        receivedAt: Date.now(),
        expects429: out.expects429,
        outsideContract: out.outsideContract,
      };
      if (!result.ok) {
        exchange.error = result.error;
        options.onExchange?.(exchange);
        return { kind: 'error', exchange };
      }
      const text = maskKnownSecrets(result.text, secrets);
      const response: RecordedResponse = {
        status: result.status,
        headers: maskHeaderValues(result.headers, names.headers, secrets),
        body: text.slice(0, EXCERPT),
        json: parseJson(result.text),
      };
      exchange.response = response;
      exchange.responseText = text;
      created.observe(exchange, op);
      options.onExchange?.(exchange);
      const state = pace.get(identity) ?? INITIAL_PACE;
      const expects429 = out.expects429 === true;
      pace.set(identity, observeResponse(state, result.status, result.headers, Date.now(), expects429));
      if (result.status === 429 && !expects429)
        return { kind: 'skipped', reason: 'rate-limited: unexpected 429 (Retry-After honoured)', exchange };
      return { kind: 'response', exchange, response };
    },
  };
}

/** The credential parts of a request: the key under the operation's (else the document's) first requirement. */
function credentialsOf(auth: Auth, op: OperationSpec | undefined, options: ClientOptions): Placement {
  if (auth.use === 'none') return emptyPlacement();
  if (auth.use === 'raw') return { headers: { Authorization: auth.value }, query: {} };
  if (auth.use === 'as' || auth.use === 'key-as') {
    const into = emptyPlacement();
    const value = auth.use === 'as' ? auth.value : options.key;
    for (const scheme of auth.schemes) place(scheme, value, into);
    return into;
  }
  const key = auth.use === 'quota' ? (options.quotaKey ?? '') : options.key;
  const into = emptyPlacement();
  // No key (a document without security): an ordinary request carries no credential at all.
  if (!key && Object.keys(options.spec.securitySchemes).length === 0) return into;
  for (const scheme of keySchemes(options.spec, op)) place(scheme, key, into);
  return into;
}

/** The schemes a valid key is sent under: the operation's first requirement, else the document's, else bearer. */
export function keySchemes(spec: LoadedSpec, op: OperationSpec | undefined): SecurityScheme[] {
  const docLevel = (spec.document.security ?? []).map((s) => Object.keys(s));
  const requirement =
    op?.security[0] ?? docLevel.find((r) => r.length > 0) ?? Object.keys(spec.securitySchemes).slice(0, 1);
  const schemes = requirement.flatMap((name) => {
    const scheme = spec.securitySchemes[name];
    return scheme ? [scheme] : [];
  });
  return schemes.length > 0 ? schemes : [{ type: 'http', scheme: 'bearer' }];
}

function withQuery(url: string, query: Record<string, string>): string {
  const entries = Object.entries(query);
  if (entries.length === 0) return url;
  const parsed = new URL(url);
  for (const [name, value] of entries) parsed.searchParams.set(name, value);
  return parsed.href;
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

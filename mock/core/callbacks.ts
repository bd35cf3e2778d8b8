/**
 * OpenAPI callbacks (issue 33): what to send after an accepted request of an operation that documents
 * `callbacks`. Pure: the document, the request and the answer in; a list of sends (URL, method, headers, body)
 * out. Sending is the Node layer's (mock/node/callbacks.ts): the core never opens a connection.
 *
 * - The URL is the callback's key with each runtime expression replaced (`{$request.body#/callbackUrl}`,
 *   `{$request.query.url}`, `{$request.header.x}`, `{$request.path.id}`, `{$response.body#/id}`,
 *   `{$response.header.x}`, `{$url}`, `{$method}`, `{$statusCode}`); an expression that names nothing leaves
 *   the callback unsent (a problem, reported like a refusal).
 * - The body: the callback's example, else generated from its schema (spec/sample.ts); then each top-level
 *   property the answer (the stored record) or the request names the same is taken from there, as long as the
 *   whole stays valid against the callback's schema.
 * - Headers: the callback's documented header parameters (their example, else generated), and its media type.
 * - Credentials: those the settings give for the schemes the callback's own `security` names
 *   (./outgoing-credentials.ts), marked secret so that no record shows them.
 * Webhooks (./webhooks.ts) are decided with the same parts: `requestOf` here and `callbackBody` (./callback-body.ts).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { OperationSpec } from '../../spec/compile';
import { sampleOf } from '../../spec/sample';
import type { Schema } from '../../spec/schema-shape';
import { isObject } from '../../spec/json';
import { operationObject, operationsOf } from '../../spec/methods';
import { exampleValue } from '../../spec/example-value';
import { callbackBody, type CallbackSource } from './callback-body';
import { outgoingAuth, withQuery } from './outgoing-credentials';
import type { OutgoingCredential, SignatureFormat } from './settings';

export interface CallbackSend {
  /** The operation whose request caused it, and the callback's name. */
  operationId: string;
  name: string;
  method: string;
  /** The URL the expression named; undefined when it names nothing (see `problem`). */
  url?: string;
  headers: Record<string, string>;
  body?: unknown;
  /** Why it cannot be sent (an expression that names nothing). */
  problem?: string;
  /** `webhook` for the document's top-level webhooks (absent: a callback). */
  kind?: 'callback' | 'webhook';
  /** What caused a webhook: `pets created`, `on demand`. */
  event?: string;
  /** Sign the exact body bytes with HMAC-SHA256 into this header (the sender does it; the secret is never shown). */
  sign?: { header: string; format: SignatureFormat; secret: string };
  /** Header names (lower-case) and query names that carry a credential, and the secret values: masked in records. */
  secretHeaders?: string[];
  secretQuery?: string[];
  secretValues?: string[];
  /** Something the record should say (sent without credentials, not signed…). */
  note?: string;
}

/** What the settings give for the credentials of callbacks and webhooks. */
export interface OutgoingAuthSource {
  schemes: Readonly<Record<string, OpenAPIV3_1.SecuritySchemeObject>>;
  credentials: Readonly<Record<string, OutgoingCredential>>;
}

export type { CallbackSource } from './callback-body';

/** RFC 6901: the value `pointer` names in `value`, or undefined. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return pointer === '' ? value : undefined;
  if (!pointer.startsWith('/')) return undefined;
  let here: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(here) && /^\d+$/.test(key)) here = here[Number(key)];
    else if (isObject(here) && Object.prototype.hasOwnProperty.call(here, key)) here = here[key];
    else return undefined;
  }
  return here;
}

const headerOf = (headers: CallbackSource['headers'], name: string): string | undefined => {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** Pure: the value of one runtime expression (`$request.body#/url`), or undefined when it names nothing. */
export function evaluate(expression: string, source: CallbackSource): string | undefined {
  const e = expression.trim();
  if (e === '$url') return source.url;
  if (e === '$method') return source.method;
  if (e === '$statusCode') return String(source.status);
  const m = /^\$(request|response)\.(header|query|path|body)(?:\.([^#]+))?(?:#(.*))?$/.exec(e);
  if (!m) return undefined;
  const [, side, part, name, pointer] = m;
  let value: unknown;
  if (part === 'body') {
    const body = side === 'request' ? source.requestBody : source.responseBody;
    value = atPointer(body, pointer ?? '');
  } else if (!name) return undefined;
  else if (part === 'header')
    value =
      side === 'request'
        ? headerOf(source.headers, name)
        : Object.entries(source.responseHeaders).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  else if (side !== 'request') return undefined;
  else if (part === 'query') value = source.query[name]?.[0];
  else value = source.params[name];
  if (value === undefined || value === null || isObject(value) || Array.isArray(value)) return undefined;
  return String(value);
}

/** Pure: the callback key with every `{expression}` replaced; a bare `$…` key is one expression. */
export function expandUrl(key: string, source: CallbackSource): { url: string } | { problem: string } {
  if (key.startsWith('$')) {
    const v = evaluate(key, source);
    return v === undefined ? { problem: `${key} names nothing in this request` } : { url: v };
  }
  let problem: string | undefined;
  const url = key.replace(/\{([^}]*)\}/g, (_all, expr: string) => {
    const v = evaluate(expr, source);
    if (v === undefined) problem ??= `{${expr}} names nothing in this request`;
    return v ?? '';
  });
  return problem ? { problem } : { url };
}

/** A header parameter's value: its example, else one generated from its schema. */
function headerValue(p: OpenAPIV3_1.ParameterObject): string | undefined {
  const v =
    p.example ?? exampleValue(Object.values(p.examples ?? {})[0]) ?? sampleOf(p.schema as Schema | undefined);
  if (v === undefined || v === null) return undefined;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

const documented = new WeakMap<OperationSpec, OpenAPIV3_1.OperationObject['callbacks'] | null>();

/** The operation's `callbacks` from the dereferenced document (looked up once per operation). */
export function callbacksOf(
  document: OpenAPIV3_1.Document,
  operation: OperationSpec,
): NonNullable<OpenAPIV3_1.OperationObject['callbacks']> | undefined {
  let found = documented.get(operation);
  if (found === undefined) {
    const op = operationObject(document, operation.path, operation.method);
    found = op?.callbacks && Object.keys(op.callbacks).length ? op.callbacks : null;
    documented.set(operation, found);
  }
  return found ?? undefined;
}

/** The JSON media type (else the first) of an operation's request body, and its media object. */
export function requestMedia(
  op: OpenAPIV3_1.OperationObject,
): { type: string; media: OpenAPIV3_1.MediaTypeObject | undefined } | undefined {
  const content = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content ?? {};
  const type =
    Object.keys(content).find((t) => /^application\/(json|[\w.+-]+\+json)\b/i.test(t)) ??
    Object.keys(content)[0];
  return type ? { type, media: content[type] } : undefined;
}

/** The header parameters a callback's (or webhook's) path item and operation document. */
export function headerParameters(
  item: OpenAPIV3_1.PathItemObject,
  op: OpenAPIV3_1.OperationObject,
): OpenAPIV3_1.ParameterObject[] {
  return ([...(item.parameters ?? []), ...(op.parameters ?? [])] as OpenAPIV3_1.ParameterObject[]).filter(
    (p) => isObject(p) && p.in === 'header' && typeof p.name === 'string',
  );
}

/**
 * Pure: one outgoing request of a callback or webhook operation: its documented headers, its body (`body` when
 * given, else `callbackBody`) and the credentials its `security` asks for, to `url` (undefined: a `problem`).
 * Headers named in `skipHeaders` (lower-case) are left for the sender (a signature it computes).
 */
export function requestOf(
  item: OpenAPIV3_1.PathItemObject,
  op: OpenAPIV3_1.OperationObject,
  target: { url: string } | { problem: string },
  body: { given: unknown } | { source: CallbackSource; wraps?: unknown },
  auth: OutgoingAuthSource | undefined,
  skipHeaders: readonly string[] = [],
): Pick<
  CallbackSend,
  'headers' | 'body' | 'url' | 'problem' | 'secretHeaders' | 'secretQuery' | 'secretValues' | 'note'
> {
  const headers: Record<string, string> = {};
  for (const p of headerParameters(item, op)) {
    if (skipHeaders.includes(p.name.toLowerCase())) continue;
    const v = headerValue(p);
    if (v !== undefined) headers[p.name] = v;
  }
  const media = requestMedia(op);
  const value =
    'given' in body ? body.given : media ? callbackBody(media.media, body.source, body.wraps) : undefined;
  if (media && value !== undefined) headers['Content-Type'] = media.type;
  const credentials = auth ? outgoingAuth(op.security, auth.schemes, auth.credentials) : undefined;
  if (credentials) {
    for (const name of Object.keys(credentials.headers))
      for (const k of Object.keys(headers)) if (k.toLowerCase() === name.toLowerCase()) delete headers[k];
    Object.assign(headers, credentials.headers);
  }
  return {
    headers,
    body: value,
    ...('url' in target
      ? { url: withQuery(target.url, credentials?.query ?? {}) }
      : { problem: target.problem }),
    ...(credentials?.secretValues.length
      ? {
          secretHeaders: credentials.secretHeaders,
          secretQuery: credentials.secretQuery,
          secretValues: credentials.secretValues,
        }
      : {}),
    ...(credentials?.note ? { note: credentials.note } : {}),
  };
}

/** Pure: every callback of `operation` to send after this accepted request, with its URL, headers and body. */
export function decideCallbacks(
  document: OpenAPIV3_1.Document,
  operation: OperationSpec,
  source: CallbackSource,
  auth?: OutgoingAuthSource,
): CallbackSend[] {
  const callbacks = callbacksOf(document, operation);
  if (!callbacks) return [];
  const out: CallbackSend[] = [];
  for (const [name, callback] of Object.entries(callbacks)) {
    if (!isObject(callback)) continue;
    for (const [key, item] of Object.entries(callback as Record<string, OpenAPIV3_1.PathItemObject>)) {
      if (!isObject(item)) continue;
      for (const { method, operation: op } of operationsOf(item)) {
        out.push({
          operationId: operation.operationId,
          name,
          method: method.toUpperCase(),
          ...requestOf(item, op, expandUrl(key, source), { source }, auth),
        });
      }
    }
  }
  return out;
}

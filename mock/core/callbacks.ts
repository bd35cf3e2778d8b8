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
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ValidateFunction } from 'ajv';
import type { OperationSpec } from '../../spec/compile';
import { createAjv } from '../../spec/ajv';
import { sampleOf } from '../../spec/sample';
import type { Schema } from '../../spec/schema-shape';
import { isObject } from '../../spec/json';
import { operationObject, operationsOf } from '../../spec/methods';
import { exampleValue } from '../../spec/example-value';

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
}

/** What a runtime expression may read. */
export interface CallbackSource {
  method: string;
  /** The request URL as received (path and query). */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  query: Readonly<Record<string, string[]>>;
  params: Readonly<Record<string, string>>;
  requestBody: unknown;
  status: number;
  responseBody: unknown;
  responseHeaders: Readonly<Record<string, string | number>>;
}

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

const ajv = createAjv();
const validators = new WeakMap<object, ValidateFunction>();

/** The callback body schema's validator, compiled on its first use (once per schema). */
function validatorOf(schema: Schema): ValidateFunction | undefined {
  if (!isObject(schema)) return undefined;
  let v = validators.get(schema);
  if (!v) {
    try {
      v = ajv.compile(schema);
    } catch {
      return undefined;
    }
    validators.set(schema, v);
  }
  return v;
}

/** Pure: the callback's body: its example (else generated), with same-named values of the record and request. */
export function callbackBody(
  media: OpenAPIV3_1.MediaTypeObject | undefined,
  source: CallbackSource,
): unknown {
  if (!media) return undefined;
  const schema = media.schema as Schema | undefined;
  const firstExample = exampleValue(Object.values(media.examples ?? {})[0]);
  const base = media.example ?? firstExample ?? (schema ? sampleOf(schema) : undefined);
  if (!isObject(base) || !schema) return base;
  const validate = validatorOf(schema);
  const props = isObject((schema as Record<string, unknown>).properties)
    ? Object.keys((schema as { properties: Record<string, unknown> }).properties)
    : Object.keys(base);
  let body: Record<string, unknown> = { ...base };
  for (const name of props) {
    for (const from of [source.responseBody, source.requestBody]) {
      if (!isObject(from) || from[name] === undefined) continue;
      const next = { ...body, [name]: from[name] };
      if (!validate || validate(next)) {
        body = next;
        break;
      }
    }
  }
  return body;
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

/** Pure: every callback of `operation` to send after this accepted request, with its URL, headers and body. */
export function decideCallbacks(
  document: OpenAPIV3_1.Document,
  operation: OperationSpec,
  source: CallbackSource,
): CallbackSend[] {
  const callbacks = callbacksOf(document, operation);
  if (!callbacks) return [];
  const out: CallbackSend[] = [];
  for (const [name, callback] of Object.entries(callbacks)) {
    if (!isObject(callback)) continue;
    for (const [key, item] of Object.entries(callback as Record<string, OpenAPIV3_1.PathItemObject>)) {
      if (!isObject(item)) continue;
      for (const { method, operation: op } of operationsOf(item)) {
        const content = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content ?? {};
        const type =
          Object.keys(content).find((t) => /^application\/(json|[\w.+-]+\+json)\b/i.test(t)) ??
          Object.keys(content)[0];
        const headers: Record<string, string> = {};
        for (const p of [
          ...(item.parameters ?? []),
          ...(op.parameters ?? []),
        ] as OpenAPIV3_1.ParameterObject[]) {
          if (p?.in !== 'header') continue;
          const v = headerValue(p);
          if (v !== undefined) headers[p.name] = v;
        }
        const body = type ? callbackBody(content[type], source) : undefined;
        if (type && body !== undefined) headers['Content-Type'] = type;
        const target = expandUrl(key, source);
        out.push({
          operationId: operation.operationId,
          name,
          method: method.toUpperCase(),
          headers,
          body,
          ...('url' in target ? { url: target.url } : { problem: target.problem }),
        });
      }
    }
  }
  return out;
}

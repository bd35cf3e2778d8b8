/**
 * Pure: an OpenAPI 3.1 document already read, validated and dereferenced -> the operation table (for routing)
 * and every ajv validator (requests, responses, headers). No node:* module: the browser engine uses it too.
 */
import { isXmlMediaType } from './xml';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ValidateFunction, ErrorObject } from 'ajv';
import { createSchemaCompiler, type SchemaCompiler, type SchemaDirection } from './schema-compiler';
import { basePathOf } from './base-path';
import { ABSENT_KEYWORD, registerSchemaNames, requestView, responseView } from './schema-views';
import { templatePattern } from './http/path-template';
import { streamShapeOf, type StreamSpec } from './http/stream-format';
import { operationsOf } from './methods';
import { exampleValue } from './example-value';
import { compileCallbacks, type CallbackSpec } from './callbacks';

/** A method, lower-cased: a Path Item's fixed field (`get` … `trace`, 3.2's `query`) or 3.2's additional one. */
export type HttpMethod = string;

export interface HeaderSpec {
  name: string;
  required: boolean;
  /** Validates the header value after integer/number coercion from its string form. */
  validate: ValidateFunction;
  schema: OpenAPIV3_1.SchemaObject;
}

export interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: OpenAPIV3_1.SchemaObject;
  /** Validates the value after coercion from its string form (see coerceParam). */
  validate: ValidateFunction;
  /** `style` and `explode` as written (spec/http/query-params.ts reads an object or array query parameter by them). */
  style?: string;
  explode?: boolean;
}

/**
 * An OpenAPI 3.2 `in: querystring` parameter: the whole query string is one value, described by the one media
 * type of its `content` (`application/x-www-form-urlencoded`: name=value pairs as an object; JSON: the text,
 * percent-decoded). spec/http/querystring.ts reads and writes it.
 */
export interface QuerystringSpec {
  name: string;
  required: boolean;
  mediaType: string;
  kind: 'form' | 'json' | 'text';
  schema: OpenAPIV3_1.SchemaObject;
  validate: ValidateFunction;
}

export interface ResponseSpec {
  status: string;
  description: string;
  /** The JSON media type the response documents (`application/json`, `application/problem+json`, ...). */
  contentType?: string;
  /** Every media type documented for this response. */
  mediaTypes: string[];
  /** Compiled validator of the JSON body, when the spec documents one. */
  validateBody?: ValidateFunction;
  schema?: OpenAPIV3_1.SchemaObject;
  example?: unknown;
  headers: HeaderSpec[];
  /** Sequential media types documented with the schema of their items (3.2 `itemSchema`; spec/http/streams.ts). */
  streams?: StreamSpec[];
  /** An XML answer's schema and validator where no JSON is documented (issue 40; read by spec/xml.ts). */
  xml?: { schema: OpenAPIV3_1.SchemaObject; validate: ValidateFunction };
}

export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** Path template as written in the spec, e.g. `/pets/{petId}`. */
  path: string;
  pathPattern: RegExp;
  pathParams: string[];
  deprecated: boolean;
  /** `x-sunset` of the operation, when the document gives one (the mock's config may add one). */
  sunset?: string;
  /** `x-stability` of the operation, when the document gives one. */
  stability?: string;
  requiresAuth: boolean;
  /** Security alternatives (OR), each a list of scheme names (AND); empty when the operation is open. */
  security: string[][];
  /** Every `x-` key of the operation. */
  extensions: Record<string, unknown>;
  /** Parameters by location (path and operation level merged, the operation's winning). */
  pathParamSpecs: ParamSpec[];
  queryParams: ParamSpec[];
  headerParams: ParamSpec[];
  cookieParams: ParamSpec[];
  /** The 3.2 `in: querystring` parameter, when the operation (or its path) documents one. */
  querystring?: QuerystringSpec;
  requestBody?: {
    required: boolean;
    /** Every documented media type of the body. */
    mediaTypes: string[];
    /** `json` when a JSON media type is documented, else `form` for application/x-www-form-urlencoded. */
    kind: 'json' | 'form' | 'other';
    schema: OpenAPIV3_1.SchemaObject;
    validate: ValidateFunction;
    example?: unknown;
    /** The form media type's `encoding` by property, when it has one (spec/http/form-decode.ts reads it). */
    formEncoding?: Record<string, OpenAPIV3_1.EncodingObject>;
    /** The `multipart/form-data` media type's `encoding` by property, when it has one (the runner writes parts by it). */
    multipartEncoding?: Record<string, OpenAPIV3_1.EncodingObject>;
  };
  responses: Map<string, ResponseSpec>;
  /** The documented callbacks (issue 33; spec/callbacks.ts), bodies in the request view; absent when none. */
  callbacks?: CallbackSpec[];
}

export interface CompiledSpec {
  /** Where the document came from (a file path, or a label for a document passed in). */
  file: string;
  document: OpenAPIV3_1.Document;
  /** Base path from the servers entries, e.g. `/v1` (§9: every base address ends in /v1). */
  basePath: string;
  operations: OperationSpec[];
  byId: Map<string, OperationSpec>;
  /** Validators of each component schema, keyed by name, each compiled when first used. */
  schemas: ReadonlyMap<string, ValidateFunction>;
  /** The document's security schemes, by name. */
  securitySchemes: Record<string, OpenAPIV3_1.SecuritySchemeObject>;
  /** How many validators have been compiled so far (each on its first use). */
  readonly compiledValidators: number;
  /** Decisions the compile took that the document did not spell out (ids derived), one line each, for the start. */
  notes: string[];
}

export interface LoadedSpec extends CompiledSpec {
  /** The validation of these exact bytes was remembered from an earlier load (spec/validation-cache.ts). */
  fromCache: boolean;
}

/** A validator of one schema in one direction, compiled on its first call. */
type Compile = (schema: unknown, direction: SchemaDirection, where: string) => ValidateFunction;

/**
 * The operation table (eager: routing and resource inference need it at once) and a validator for every schema,
 * each compiled on its first use (a document of a thousand operations starts in a second), components once.
 * `checkMeta`: validate every schema against the JSON Schema meta-schema first, so that a broken one is refused
 * at start. Done whenever swagger-parser has just validated the document (its OpenAPI 3.1 schema does not look
 * inside Schema Objects); skipped for a document remembered as valid.
 */
export function compileSpec(file: string, document: OpenAPIV3_1.Document, checkMeta: boolean): CompiledSpec {
  registerSchemaNames(document.components?.schemas as Record<string, unknown> | undefined);
  const compiler = createSchemaCompiler(document);
  if (checkMeta) checkSchemas(compiler, document);
  const compile: Compile = (schema, direction, where) => compiler.lazy(schema, direction, where);
  const componentSchemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const operations: OperationSpec[] = [];
  const ids = operationIds(document);
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const { method, operation: op } of operationsOf(item)) {
      const id = ids.byOperation.get(`${method} ${template}`) ?? derivedOperationId(method, template);
      operations.push(compileOperation(compile, document, template, method, op, item?.parameters, id));
    }
  }
  return {
    notes: ids.notes,
    file,
    document,
    basePath: basePathOf(document),
    operations,
    byId: new Map(operations.map((o) => [o.operationId, o])),
    schemas: lazyMap(Object.keys(componentSchemas), (name) =>
      compiler.lazy(componentSchemas[name], 'raw', `#/components/schemas/${name}`),
    ),
    securitySchemes: (document.components?.securitySchemes ?? {}) as Record<
      string,
      OpenAPIV3_1.SecuritySchemeObject
    >,
    get compiledValidators() {
      return compiler.compiled;
    },
  };
}

/** Every schema of the document against the meta-schema: the first broken one is an error naming where it is. */
function checkSchemas(compiler: SchemaCompiler, document: OpenAPIV3_1.Document): void {
  forEachSchemaRoot(document, (schema, where) => {
    const problem = compiler.metaProblem(schema, 'raw');
    if (problem) throw new Error(`${where}: ${problem}`);
  });
}

/** The schemas an operation table holds (components, parameters, bodies, responses, headers), with where. */
function forEachSchemaRoot(
  document: OpenAPIV3_1.Document,
  visit: (schema: unknown, where: string) => void,
): void {
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
    visit(schema, `#/components/schemas/${name}`);
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const { method, operation: op } of operationsOf(item)) {
      const where = `${method.toUpperCase()} ${template}`;
      for (const p of [
        ...(item?.parameters ?? []),
        ...(op.parameters ?? []),
      ] as OpenAPIV3_1.ParameterObject[])
        for (const schema of [p?.schema, ...querystringSchemas(p)])
          if (schema) visit(schema, `${where} parameter ${p.name}`);
      const body = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
      for (const media of Object.values(body?.content ?? {}))
        if (media.schema) visit(media.schema, `${where} requestBody`);
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        const res = r as OpenAPIV3_1.ResponseObject;
        for (const media of Object.values(res.content ?? {})) {
          if (media.schema) visit(media.schema, `${where} ${status} body`);
          const item = (media as { itemSchema?: unknown }).itemSchema;
          if (item) visit(item, `${where} ${status} itemSchema`);
        }
        for (const [h, header] of Object.entries(res.headers ?? {})) {
          const schema = (header as OpenAPIV3_1.HeaderObject).schema;
          if (schema) visit(schema, `${where} ${status} header ${h}`);
        }
      }
    }
  }
}

/** The schema under a 3.2 `in: querystring` parameter's `content` (other parameters' `content` is not read). */
function querystringSchemas(p: OpenAPIV3_1.ParameterObject | undefined): unknown[] {
  if (p?.in !== 'querystring') return [];
  return Object.values((p.content ?? {}) as Record<string, OpenAPIV3_1.MediaTypeObject>).map((m) => m.schema);
}

/** The id of an operation the document gives none (or one another operation already has): `get_/pets/{id}`. */
export function derivedOperationId(method: string, template: string): string {
  return `${method}_${template}`;
}

/**
 * Each operation's id: its `operationId`, else one derived from its method and path (optional in OpenAPI; 377
 * of APIs.guru's 2,639 documents leave some out), also for the second of two operations that share one. One
 * note says how many were derived, with an example, so that messages, reports and `x-mock` settings can name it.
 */
export function operationIds(document: OpenAPIV3_1.Document): {
  /** By `method template` (a path item may be shared by two paths: objects are not keys). */
  byOperation: Map<string, string>;
  notes: string[];
} {
  const byOperation = new Map<string, string>();
  const taken = new Set<string>();
  const derived: string[] = [];
  const shared: string[] = [];
  const later: [string, string][] = [];
  for (const [template, item] of Object.entries(document.paths ?? {}))
    for (const { method, operation: op } of operationsOf(item)) {
      const given = typeof op.operationId === 'string' && op.operationId !== '' ? op.operationId : undefined;
      if (given !== undefined && !taken.has(given)) {
        taken.add(given);
        byOperation.set(`${method} ${template}`, given);
      } else {
        if (given !== undefined) shared.push(given);
        later.push([method, template]);
      }
    }
  for (const [method, template] of later) {
    let id = derivedOperationId(method, template);
    for (let n = 2; taken.has(id); n++) id = `${derivedOperationId(method, template)}#${n}`;
    taken.add(id);
    byOperation.set(`${method} ${template}`, id);
    derived.push(id);
  }
  const notes: string[] = [];
  if (derived.length > 0) {
    const why = [
      derived.length - shared.length > 0 ? `${derived.length - shared.length} without an operationId` : '',
      shared.length > 0
        ? `${shared.length} sharing one (${[...new Set(shared)].slice(0, 2).join(', ')})`
        : '',
    ].filter(Boolean);
    notes.push(
      `operation ids: ${why.join(' and ')} named by method and path (${derived[0]}${derived.length > 1 ? ', …' : ''}), ` +
        "as messages, reports and the runner's --operation name them",
    );
  }
  return { byOperation, notes };
}

/** A read-only map whose values are made when first asked for. */
function lazyMap<V>(keys: readonly string[], make: (key: string) => V): ReadonlyMap<string, V> {
  const made = new Map<string, V>();
  const get = (key: string): V | undefined => {
    if (!keys.includes(key)) return undefined;
    let v = made.get(key);
    if (v === undefined) made.set(key, (v = make(key)));
    return v;
  };
  const entries = function* (): Generator<[string, V]> {
    for (const k of keys) yield [k, get(k) as V];
  };
  return {
    get,
    has: (key) => keys.includes(key),
    get size() {
      return keys.length;
    },
    keys: () => keys[Symbol.iterator](),
    values: function* () {
      for (const [, v] of entries()) yield v;
    },
    entries,
    forEach: (fn) => {
      for (const [k, v] of entries()) fn(v, k, undefined as never);
    },
    [Symbol.iterator]: entries,
  } as ReadonlyMap<string, V>;
}

function compileOperation(
  compile: Compile,
  document: OpenAPIV3_1.Document,
  template: string,
  method: HttpMethod,
  op: OpenAPIV3_1.OperationObject,
  pathLevel: OpenAPIV3_1.PathItemObject['parameters'],
  operationId: string,
): OperationSpec {
  const where = `${method.toUpperCase()} ${template}`;
  const ext = op as Record<string, unknown>;
  const responses = new Map<string, ResponseSpec>();
  for (const [status, res] of Object.entries(op.responses ?? {})) {
    responses.set(
      status,
      compileResponse(compile, status, res as OpenAPIV3_1.ResponseObject, `${where} ${status}`),
    );
  }
  const security = op.security ?? document.security ?? [];
  const { pattern, params } = compilePath(template);
  const rawParams = [...(pathLevel ?? []), ...(op.parameters ?? [])];
  const paramSpecs = compileParams(compile, rawParams, where);
  const querystring = compileQuerystring(compile, rawParams, where);
  const extensions: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(op)) if (k.startsWith('x-')) extensions[k] = v;
  return {
    operationId,
    method,
    path: template,
    pathPattern: pattern,
    pathParams: params,
    deprecated: op.deprecated === true,
    sunset: typeof ext['x-sunset'] === 'string' ? ext['x-sunset'] : undefined,
    stability: typeof ext['x-stability'] === 'string' ? ext['x-stability'] : undefined,
    requiresAuth: security.length > 0 && !security.some((s) => Object.keys(s).length === 0),
    security: security.some((s) => Object.keys(s).length === 0) ? [] : security.map((s) => Object.keys(s)),
    extensions,
    pathParamSpecs: paramSpecs.filter((p) => p.in === 'path'),
    queryParams: paramSpecs.filter((p) => p.in === 'query'),
    // OpenAPI 3.1 §4.8.12.1: header parameters named Accept, Content-Type or Authorization are ignored.
    headerParams: paramSpecs.filter((p) => p.in === 'header' && !RESERVED_HEADERS.has(p.name.toLowerCase())),
    cookieParams: paramSpecs.filter((p) => p.in === 'cookie'),
    ...(querystring ? { querystring } : {}),
    requestBody: compileRequestBody(
      compile,
      op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined,
      where,
    ),
    responses,
    ...(op.callbacks && Object.keys(op.callbacks).length > 0
      ? {
          callbacks: compileCallbacks(
            op.callbacks,
            (schema, direction, at) =>
              compile(requestView(schema as OpenAPIV3_1.SchemaObject), direction, at),
            where,
          ),
        }
      : {}),
  };
}

function compileRequestBody(
  compile: Compile,
  body: OpenAPIV3_1.RequestBodyObject | undefined,
  where: string,
): OperationSpec['requestBody'] {
  if (!body?.content) return undefined;
  const mediaTypes = Object.keys(body.content);
  const json = mediaTypes.find(isJsonMediaType);
  const form = mediaTypes.find((t) => t.toLowerCase().startsWith('application/x-www-form-urlencoded'));
  const chosen = json ?? form ?? mediaTypes[0];
  const media = chosen ? body.content[chosen] : undefined;
  // The request view: readOnly properties are the server's, never required of a client.
  const schema = requestView((media?.schema ?? {}) as OpenAPIV3_1.SchemaObject);
  const formEncoding = form ? body.content[form]?.encoding : undefined;
  const multipart = mediaTypes.find((t) => t.toLowerCase().startsWith('multipart/form-data'));
  const multipartEncoding = multipart ? body.content[multipart]?.encoding : undefined;
  return {
    required: body.required === true,
    mediaTypes,
    kind: json ? 'json' : form ? 'form' : 'other',
    schema,
    validate: compile(schema, 'request', `${where} requestBody`),
    example: exampleOf(media),
    ...(formEncoding && Object.keys(formEncoding).length > 0 ? { formEncoding } : {}),
    ...(multipartEncoding && Object.keys(multipartEncoding).length > 0 ? { multipartEncoding } : {}),
  };
}

function compileResponse(
  compile: Compile,
  status: string,
  res: OpenAPIV3_1.ResponseObject,
  where: string,
): ResponseSpec {
  const mediaTypes = Object.keys(res.content ?? {});
  const jsonType = mediaTypes.find(isJsonMediaType);
  // `*/*` (or `application/*`) over a schema of objects or lists: JSON is a type it allows, and the one such a
  // schema is written in (a client reading the document parses it as JSON; octet-stream would be no object).
  const wildcard = jsonType
    ? undefined
    : mediaTypes.find(
        (t) =>
          /^(\*|application)\/\*$/.test(t.split(';')[0]?.trim() ?? '') &&
          isStructured(res.content?.[t]?.schema),
      );
  const contentType = jsonType ?? (wildcard ? 'application/json' : undefined);
  const media = res.content?.[jsonType ?? wildcard ?? ''];
  // JSON given only examples beside `*/*` given a schema (OSF's lists): the range's schema is the one a judge
  // holds the JSON to (Prism's validator does), so the answer is made to it.
  const covering =
    jsonType && media && media.schema === undefined
      ? mediaTypes.find(
          (t) =>
            /^(\*|application)\/\*$/.test(t.split(';')[0]?.trim() ?? '') &&
            res.content?.[t]?.schema !== undefined,
        )
      : undefined;
  // The response view: writeOnly properties are never required of, nor present in, a response.
  const schema = responseView(
    (media?.schema ?? res.content?.[covering ?? '']?.schema) as OpenAPIV3_1.SchemaObject | undefined,
  );
  const headers: HeaderSpec[] = Object.entries(res.headers ?? {}).map(([name, h]) => {
    const header = h as OpenAPIV3_1.HeaderObject;
    const hs = (header.schema ?? {}) as OpenAPIV3_1.SchemaObject;
    return {
      name,
      required: header.required === true,
      schema: hs,
      validate: compile(hs, 'raw', `${where} header ${name}`),
    };
  });
  const streams = Object.entries(res.content ?? {}).flatMap(([type, m]): StreamSpec[] => {
    const shape = streamShapeOf(type, m);
    if (!shape) return [];
    const itemSchema = responseView(shape.itemSchema);
    return [{ ...shape, itemSchema, validateItem: compile(itemSchema, 'response', `${where} ${type} item`) }];
  });
  const xmlType = contentType ? undefined : mediaTypes.find(isXmlMediaType);
  const xmlSchema =
    xmlType && responseView(res.content?.[xmlType]?.schema as OpenAPIV3_1.SchemaObject | undefined);
  return {
    ...(streams.length > 0 ? { streams } : {}),
    ...(xmlSchema
      ? { xml: { schema: xmlSchema, validate: compile(xmlSchema, 'response', `${where} xml body`) } }
      : {}),
    status,
    description: res.description,
    contentType,
    mediaTypes,
    schema,
    validateBody: schema ? compile(schema, 'response', `${where} body`) : undefined,
    example: exampleOf(media),
    headers,
  };
}

/** Does the schema describe an object or a list (by type, or by the keywords only those have)? */
function isStructured(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as Record<string, unknown>;
  const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? (s.type as string[]) : [];
  if (types.length > 0) return types.includes('object') || types.includes('array');
  if (s.properties || s.items || s.additionalProperties) return true;
  const parts = [s.allOf, s.oneOf, s.anyOf].flatMap((x) => (Array.isArray(x) ? (x as unknown[]) : []));
  return parts.length > 0 && parts.every(isStructured);
}

/** `application/json`, `application/problem+json`, `application/vnd.x+json` (a wildcard is not one). */
export function isJsonMediaType(type: string): boolean {
  // The usual case, asked of every answer judged: nothing to split or lower-case.
  if (type === 'application/json') return true;
  const t = (type.split(';')[0] ?? '').trim().toLowerCase();
  return t === 'application/json' || /^application\/[\w.+-]+\+json$/.test(t);
}

/** The media type's `example`, else the value (3.2: `dataValue`) of its first `examples` entry. */
function exampleOf(media: OpenAPIV3_1.MediaTypeObject | undefined): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  return exampleValue(Object.values(media.examples ?? {})[0]);
}

const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function compileParams(compile: Compile, raw: readonly unknown[], where: string): ParamSpec[] {
  const byKey = new Map<string, ParamSpec>();
  for (const p of raw as OpenAPIV3_1.ParameterObject[]) {
    if (!p || typeof p !== 'object' || !p.name || p.in === 'querystring') continue;
    const schema = (p.schema ?? {}) as OpenAPIV3_1.SchemaObject;
    const location = p.in as ParamSpec['in'];
    byKey.set(`${location}:${p.name}`, {
      name: p.name,
      in: location,
      required: p.required === true || location === 'path',
      schema,
      validate: compile(schema, 'raw', `${where} parameter ${p.name}`),
      ...(p.style ? { style: p.style } : {}),
      ...(typeof p.explode === 'boolean' ? { explode: p.explode } : {}),
    });
  }
  return [...byKey.values()];
}

/** The last `in: querystring` parameter (the operation's wins over its path's: they come last), if any. */
function compileQuerystring(
  compile: Compile,
  raw: readonly unknown[],
  where: string,
): QuerystringSpec | undefined {
  const p = (raw as OpenAPIV3_1.ParameterObject[]).filter((q) => q?.in === 'querystring' && q.name).pop();
  if (!p) return undefined;
  const content = (p.content ?? {}) as Record<string, OpenAPIV3_1.MediaTypeObject>;
  const [mediaType, media] = Object.entries(content)[0] ?? ['text/plain', undefined];
  const type = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  const kind =
    type === 'application/x-www-form-urlencoded' ? 'form' : isJsonMediaType(type) ? 'json' : 'text';
  // The request view, as for a body: readOnly properties are never required of a client.
  const schema = requestView((media?.schema ?? {}) as OpenAPIV3_1.SchemaObject);
  return {
    name: p.name,
    required: p.required === true,
    mediaType,
    kind,
    schema,
    validate: compile(schema, 'request', `${where} parameter ${p.name}`),
  };
}

/**
 * A parameter's string value as its schema's type (`"5"` -> 5 for an integer), unchanged when it does not fit.
 * An object sent under its own name as JSON text (Redshift's `TargetAction`, "a JSON format string") is read as
 * that object, as Prism's proxy accepts it; any other text stays text, for the schema to refuse.
 */
export function coerceParam(schema: OpenAPIV3_1.SchemaObject, raw: string): unknown {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const t = raw.trim();
  if ((types.includes('object') || (!schema.type && schema.properties)) && t.startsWith('{')) {
    const parsed = jsonObject(t);
    if (parsed !== undefined) return parsed;
  }
  if ((types.includes('integer') || types.includes('number')) && t !== '' && !Number.isNaN(Number(t)))
    return Number(t);
  if (types.includes('boolean') && (t === 'true' || t === 'false')) return t === 'true';
  if (types.includes('array')) return raw.split(',');
  return raw;
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** `/pets/{petId}` -> /^\/pets\/([^/]+)$/ with params ['petId']. */
/** `/pets/{petId}` -> a regular expression capturing each parameter, and the parameters' names in order. */
export function compilePath(template: string): { pattern: RegExp; params: string[] } {
  return templatePattern(template);
}

/** Coerce a header's string value to the type its schema names, then validate it. */
/** Every valid header value's verdict (one object: this runs for each documented header of every answer). */
const VALID_HEADER: { valid: boolean; problem?: string } = Object.freeze({ valid: true });

export function validateHeaderValue(header: HeaderSpec, raw: string): { valid: boolean; problem?: string } {
  const type = header.schema.type;
  let value: unknown = raw;
  if (type === 'integer') {
    const text = raw.trim();
    value = /^-?\d+$/.test(text) ? Number(text) : raw;
  } else if (type === 'number') value = raw.trim() !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
  const valid = header.validate(value);
  return valid
    ? VALID_HEADER
    : { valid: false, problem: formatAjvErrors(header.validate.errors, header.name) };
}

/** One readable line from ajv's structured errors, e.g. `/name must be string`; `root` names the top level. */
export function formatAjvErrors(errors: ErrorObject[] | null | undefined, root = 'body'): string {
  if (!errors || errors.length === 0) return `${root} is invalid`;
  return errors
    .slice(0, 3)
    .map((e) => {
      if (e.keyword === 'required')
        return `${e.instancePath}/${String(e.params.missingProperty)} is required`;
      if (e.keyword === ABSENT_KEYWORD)
        return `${e.instancePath}/${String(e.params.property)} is writeOnly and must not be in a response`;
      if (e.keyword === 'additionalProperties')
        return `${e.instancePath}/${String(e.params.additionalProperty)} is not allowed`;
      return `${e.instancePath || root} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

/** The response that documents `status`: its own entry, else its range (`2XX`), else `default`. */
export function documentedResponse(op: OperationSpec, status: number | string): ResponseSpec | undefined {
  const s = String(status);
  return op.responses.get(s) ?? op.responses.get(`${s[0] ?? ''}XX`) ?? op.responses.get('default');
}

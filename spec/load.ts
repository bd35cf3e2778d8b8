/**
 * Read and validate spec/openapi.yaml once, and compile everything the tools need from it:
 * the operation table (for routing) and every ajv validator (for requests, responses and headers).
 * Nothing here runs per request.
 */
import { DEFAULT_SPEC_PATH } from './paths';
import { readFile } from 'node:fs/promises';
import { readValidated, rememberValidated } from './validation-cache';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ValidateFunction, ErrorObject } from 'ajv';
import { sharedAjv } from './ajv';

export { DEFAULT_SPEC_PATH };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof METHODS)[number];

export interface HeaderSpec {
  name: string;
  required: boolean;
  /** Validates the header value after integer/number coercion from its string form. */
  validate: ValidateFunction;
  schema: OpenAPIV3_1.SchemaObject;
}

export interface ResponseSpec {
  status: string;
  description: string;
  /** Compiled validator of the application/json body, when the spec documents one. */
  validateBody?: ValidateFunction;
  schema?: OpenAPIV3_1.SchemaObject;
  example?: unknown;
  headers: HeaderSpec[];
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
  requestBody?: {
    required: boolean;
    schema: OpenAPIV3_1.SchemaObject;
    validate: ValidateFunction;
    example?: unknown;
  };
  responses: Map<string, ResponseSpec>;
}

export interface LoadedSpec {
  file: string;
  document: OpenAPIV3_1.Document;
  /** Base path from the servers entries, e.g. `/v1` (§9: every base address ends in /v1). */
  basePath: string;
  operations: OperationSpec[];
  byId: Map<string, OperationSpec>;
  /** Compiled validators of each component schema, keyed by name. */
  schemas: Map<string, ValidateFunction>;
  /** The validation of these exact bytes was remembered from an earlier load (spec/validation-cache.ts). */
  fromCache: boolean;
}

export type SpecResult = { ok: true; spec: LoadedSpec } | { ok: false; error: string };

/** Load, validate and compile the OpenAPI document; a broken document is an error value naming the problem. */
export async function loadSpec(file: string = DEFAULT_SPEC_PATH): Promise<SpecResult> {
  let document = (await readValidated(file)) as OpenAPIV3_1.Document | undefined;
  const fromCache = document !== undefined;
  let files: string[] = [];
  if (!document) {
    try {
      // validate() checks the document against the OpenAPI schema and resolves every $ref. Loaded here, not
      // at the top: a restart on an unchanged, already validated document does not need it.
      const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
      const parser = new SwaggerParser();
      document = (await parser.validate(file)) as OpenAPIV3_1.Document;
      files = parser.$refs.paths();
    } catch (err) {
      return {
        ok: false,
        error: `invalid OpenAPI document ${file}: ${describeParserError(err)}${await refLocation(file, err)}`,
      };
    }
  }
  let spec: LoadedSpec;
  try {
    spec = { ...compileSpec(file, document, !fromCache), fromCache };
  } catch (err) {
    return { ok: false, error: `cannot compile OpenAPI document ${file}: ${(err as Error).message}` };
  }
  // Remembered only once every check has passed, the meta-schema check of its schemas included.
  if (!fromCache) await rememberValidated(file, files, document);
  return { ok: true, spec };
}

/** Like loadSpec, but throws; for tools where a bad spec must stop the process anyway. */
export async function loadSpecOrThrow(file: string = DEFAULT_SPEC_PATH): Promise<LoadedSpec> {
  const result = await loadSpec(file);
  if (!result.ok) throw new Error(result.error);
  return result.spec;
}

function describeParserError(err: unknown): string {
  const e = err as { message?: string; details?: Array<{ message?: string; instancePath?: string }> };
  const details = (e.details ?? [])
    .slice(0, 5)
    .map((d) => `${d.instancePath ? `at ${d.instancePath}: ` : ''}${d.message ?? ''}`)
    .join('; ');
  const message = (e.message ?? String(err)).trim();
  return details && !e.details?.every((d) => message.includes(d.instancePath ?? ''))
    ? `${message} (${details})`
    : message;
}

/** For a broken $ref, name where in the document it is used (the parser only names the target). */
async function refLocation(file: string, err: unknown): Promise<string> {
  const target = /\$ref pointer "([^"]+)"/.exec((err as Error).message ?? '')?.[1];
  if (!target) return '';
  try {
    const { parse } = await import('yaml'); // only needed when a document is broken
    const raw: unknown = parse(await readFile(file, 'utf8'));
    const found: string[] = [];
    walk(raw, '#', (node, at) => {
      if (node.$ref === target) found.push(at);
    });
    return found.length ? ` (referenced at ${found.slice(0, 3).join(', ')})` : '';
  } catch {
    return '';
  }
}

function walk(node: unknown, at: string, visit: (node: Record<string, unknown>, at: string) => void): void {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node)) visit(node as Record<string, unknown>, at);
  for (const [k, v] of Object.entries(node))
    walk(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, visit);
}

/** Compiles one schema, naming where it is in the document when it is broken. */
type Compile = (schema: unknown, where: string) => ValidateFunction;

/**
 * `checkMeta`: validate every schema against the JSON Schema meta-schema first. Done whenever swagger-parser has
 * just validated the document (its OpenAPI 3.1 schema does not look inside Schema Objects); skipped for a
 * document remembered as valid, which spares compiling the meta-schema at every start.
 */
function compileSpec(
  file: string,
  document: OpenAPIV3_1.Document,
  checkMeta: boolean,
): Omit<LoadedSpec, 'fromCache'> {
  const ajv = sharedAjv();
  const compile: Compile = (schema, where) => {
    if (checkMeta && !ajv.validateSchema(schema as object)) {
      throw new Error(`${where}: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`);
    }
    try {
      return ajv.compile(schema as object);
    } catch (err) {
      throw new Error(`${where}: ${(err as Error).message}`);
    }
  };
  const schemas = new Map<string, ValidateFunction>();
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    schemas.set(name, compile(schema, `#/components/schemas/${name}`));
  }
  const operations: OperationSpec[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      operations.push(compileOperation(compile, document, template, method, op));
    }
  }
  return {
    file,
    document,
    basePath: basePathOf(document),
    operations,
    byId: new Map(operations.map((o) => [o.operationId, o])),
    schemas,
  };
}

function compileOperation(
  compile: Compile,
  document: OpenAPIV3_1.Document,
  template: string,
  method: HttpMethod,
  op: OpenAPIV3_1.OperationObject,
): OperationSpec {
  const where = `${method.toUpperCase()} ${template}`;
  if (!op.operationId) throw new Error(`${where} has no operationId`);
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
  return {
    operationId: op.operationId,
    method,
    path: template,
    pathPattern: pattern,
    pathParams: params,
    deprecated: op.deprecated === true,
    sunset: typeof ext['x-sunset'] === 'string' ? ext['x-sunset'] : undefined,
    stability: typeof ext['x-stability'] === 'string' ? ext['x-stability'] : undefined,
    requiresAuth: security.length > 0 && !security.some((s) => Object.keys(s).length === 0),
    requestBody: compileRequestBody(
      compile,
      op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined,
      where,
    ),
    responses,
  };
}

function compileRequestBody(
  compile: Compile,
  body: OpenAPIV3_1.RequestBodyObject | undefined,
  where: string,
): OperationSpec['requestBody'] {
  const media = body?.content?.['application/json'];
  if (!body || !media?.schema) return undefined;
  const schema = media.schema as OpenAPIV3_1.SchemaObject;
  return {
    required: body.required === true,
    schema,
    validate: compile(schema, `${where} requestBody`),
    example: media.example,
  };
}

function compileResponse(
  compile: Compile,
  status: string,
  res: OpenAPIV3_1.ResponseObject,
  where: string,
): ResponseSpec {
  const media = res.content?.['application/json'];
  const schema = media?.schema as OpenAPIV3_1.SchemaObject | undefined;
  const headers: HeaderSpec[] = Object.entries(res.headers ?? {}).map(([name, h]) => {
    const header = h as OpenAPIV3_1.HeaderObject;
    const hs = (header.schema ?? {}) as OpenAPIV3_1.SchemaObject;
    return {
      name,
      required: header.required === true,
      schema: hs,
      validate: compile(hs, `${where} header ${name}`),
    };
  });
  return {
    status,
    description: res.description,
    schema,
    validateBody: schema ? compile(schema, `${where} body`) : undefined,
    example: media?.example,
    headers,
  };
}

/** `/pets/{petId}` -> /^\/pets\/([^/]+)$/ with params ['petId']. */
export function compilePath(template: string): { pattern: RegExp; params: string[] } {
  const params: string[] = [];
  const source = template
    .split('/')
    .map((segment) => {
      const m = /^\{([^}]+)\}$/.exec(segment);
      if (m?.[1]) {
        params.push(m[1]);
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), params };
}

function basePathOf(document: OpenAPIV3_1.Document): string {
  const url = document.servers?.[0]?.url ?? '/';
  const withoutVars = url.replace(/\{[^}]+\}/g, 'host');
  const pathname = withoutVars.includes('://') ? new URL(withoutVars).pathname : withoutVars;
  return pathname.replace(/\/+$/, '');
}

/** Coerce a header's string value to the type its schema names, then validate it. */
export function validateHeaderValue(header: HeaderSpec, raw: string): { valid: boolean; problem?: string } {
  const type = header.schema.type;
  let value: unknown = raw;
  if (type === 'integer') value = /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  else if (type === 'number') value = raw.trim() !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
  const valid = header.validate(value);
  return valid
    ? { valid: true }
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
      if (e.keyword === 'additionalProperties')
        return `${e.instancePath}/${String(e.params.additionalProperty)} is not allowed`;
      return `${e.instancePath || root} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

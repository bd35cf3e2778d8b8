/**
 * Bring a parsed document to OpenAPI 3.1, the version the rest of the code reads: 3.0 and Swagger 2.0 go
 * through @scalar/openapi-upgrader (`nullable`, boolean `exclusiveMinimum`, `example`, body parameters …);
 * `nullable` left over in a 3.1 document is rewritten the way the upgrader rewrites it in a 3.0 one. A 3.2
 * document is kept as written: 3.2 adds to 3.1 (`query`, `additionalOperations`, `in: querystring`, …), and
 * those additions are read where they matter (spec/oas32.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { forEachSchema } from './schema-walk';

type Json = Record<string, unknown>;
type Upgrade = (document: unknown, target: '3.1') => unknown;

export type UpgradeResult = { ok: true; document: Json; notes: string[] } | { ok: false; error: string };

/** How to turn a Swagger 2.0 file into OpenAPI 3 for good; said whenever one is converted in memory. */
export const SWAGGER2_ADVICE =
  'to keep the result, convert the file once, e.g. `npx swagger2openapi FILE -o openapi.yaml` or in ' +
  'editor.swagger.io with Edit > Convert to OpenAPI 3';

/**
 * Loaded on first use: a restart on an unchanged, already validated document does not need it. It ships ES
 * modules only, which Node requires natively from the versions package.json's engines allow (20.19, 22.12,
 * 24); jest.config.js compiles them to CommonJS for the tests.
 */
async function scalarUpgrade(): Promise<Upgrade> {
  const { upgrade } = await import('@scalar/openapi-upgrader');
  return upgrade as Upgrade;
}

/** The upgrader's version (its package does not export package.json), for the validation cache's key. */
export function upgraderVersion(): string {
  const entry = createRequire(__filename).resolve('@scalar/openapi-upgrader'); // <package>/dist/index.js
  const manifest = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? 'unknown';
}

/** The document as OpenAPI 3.1 (a new object when converted), or why it cannot be read. */
export async function toOpenApi31(raw: unknown): Promise<UpgradeResult> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, error: 'the document is not an object' };
  }
  const document = raw as Json;
  const notes: string[] = [];
  let upgraded = document;
  if ('swagger' in document) {
    if (document.swagger !== '2.0')
      return { ok: false, error: `unsupported Swagger version ${show(document.swagger)}` };
    upgraded = (await scalarUpgrade())(document, '3.1') as Json;
    // Without a `host` the upgrader keeps `schemes` at the top, which 3.1 refuses: 2.0 then means the host and
    // scheme the document is served from, which a relative server URL (`/api`) says already.
    for (const key of SWAGGER2_ONLY) delete upgraded[key];
    notes.push(`Swagger 2.0 document converted to OpenAPI 3.1 in memory; ${SWAGGER2_ADVICE}`);
  } else if (typeof document.openapi === 'string' && /^3\.0\.\d+$/.test(document.openapi)) {
    upgraded = (await scalarUpgrade())(document, '3.1') as Json;
    mendThreeZero(upgraded);
  } else if (typeof document.openapi !== 'string' || !/^3\.[12]\.\d+$/.test(document.openapi)) {
    return {
      ok: false,
      error: `unsupported OpenAPI version ${show(document.openapi)}: OpenAPI 3.0.x, 3.1.x and 3.2.x are read, and Swagger 2.0`,
    };
  }
  const leftover = rewriteLeftoverNullable(upgraded);
  // Issue 26.9: in a document written as 3.1 (or 3.2) the keyword is a leftover worth one line at start, not one per schema.
  if (leftover > 0 && upgraded === document)
    notes.push(
      `${leftover} schema(s) use the OpenAPI 3.0 keyword nullable in a ${String(document.openapi)} document; read as type [..., "null"] (3.1 writes it so)`,
    );
  return { ok: true, document: upgraded, notes };
}

/**
 * What 3.0 allowed and 3.1 words otherwise, left by the upgrade (mutates `document`): a Reference Object's
 * siblings, which 3.0 ignores (a response `$ref` beside `headers`, gerermesaffaires'), are dropped but
 * `summary` and `description` (3.1's); an `x-webhooks` entry written as a callback (`{$request.query.callback}`
 * over a Path Item, nexmo's), moved to `webhooks`, is that Path Item.
 */
export function mendThreeZero(document: Json): void {
  const paths = isJson(document.paths) ? Object.values(document.paths) : [];
  for (const item of paths) mendPathItem(item);
  const components = isJson(document.components) ? document.components : {};
  for (const [section, entries] of Object.entries(components)) {
    if (section === 'schemas' || !isJson(entries)) continue;
    for (const entry of Object.values(entries)) {
      refOnly(entry);
      if (section === 'responses') mendResponse(entry);
      if (section === 'callbacks' && isJson(entry))
        for (const item of Object.values(entry)) mendPathItem(item);
    }
  }
  const hooks = isJson(document.webhooks) ? document.webhooks : {};
  for (const [name, hook] of Object.entries(hooks)) {
    if (!isJson(hook)) continue;
    const keys = Object.keys(hook);
    const only = keys.length === 1 && keys[0]?.startsWith('{$') ? hook[keys[0]] : undefined;
    if (isJson(only)) hooks[name] = only;
    mendPathItem(hooks[name]);
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Reference Object keeps `$ref`, `summary` and `description` only. */
function refOnly(v: unknown): void {
  if (!isJson(v) || typeof v.$ref !== 'string') return;
  for (const k of Object.keys(v)) if (k !== '$ref' && k !== 'summary' && k !== 'description') delete v[k];
}

function mendPathItem(item: unknown): void {
  if (!isJson(item)) return;
  refOnly(item);
  const params = (list: unknown) => (Array.isArray(list) ? list.forEach(refOnly) : undefined);
  params(item.parameters);
  for (const method of METHODS) {
    const op = item[method];
    if (!isJson(op)) continue;
    params(op.parameters);
    refOnly(op.requestBody);
    for (const response of Object.values(isJson(op.responses) ? op.responses : {})) {
      refOnly(response);
      mendResponse(response);
    }
    for (const callback of Object.values(isJson(op.callbacks) ? op.callbacks : {}))
      if (isJson(callback)) for (const inner of Object.values(callback)) mendPathItem(inner);
  }
}

function mendResponse(response: unknown): void {
  if (!isJson(response) || !isJson(response.headers)) return;
  for (const header of Object.values(response.headers)) refOnly(header);
}

/** Top-level keys of Swagger 2.0 whose meaning the upgrade has moved into `servers` and the media types. */
const SWAGGER2_ONLY = ['schemes', 'host', 'basePath', 'consumes', 'produces'] as const;

const show = (v: unknown): string => (v === undefined ? '(none)' : JSON.stringify(v));

/**
 * Returns how many schemas carried it. `nullable` is no 3.1 keyword, yet 3.1 documents carry it, and the upgrader leaves it where nothing states a
 * type. With a type it means "or null" (as the upgrader reads it); without one, `null` already passes every
 * keyword but `type`, `enum` and `const`, so it is dropped. Ajv would otherwise refuse `nullable` without `type`.
 */
export function rewriteLeftoverNullable(document: unknown): number {
  let count = 0;
  forEachSchema(document, (schema) => {
    if (!('nullable' in schema)) return;
    count++;
    const { nullable, type } = schema;
    delete schema.nullable;
    if (nullable !== true || type === undefined) return;
    const types = Array.isArray(type) ? type : [type];
    if (!types.includes('null')) schema.type = [...types, 'null'];
  });
  return count;
}

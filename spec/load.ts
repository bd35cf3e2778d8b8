/**
 * Read and validate spec/openapi.yaml once, and compile everything the tools need from it:
 * the operation table (for routing) and every ajv validator (for requests, responses and headers).
 * Nothing here runs per request.
 */
import { DEFAULT_SPEC_PATH } from './paths';
import { readFile } from 'node:fs/promises';
import { readValidated, rememberValidated } from './validation-cache';
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec, type LoadedSpec } from './compile';

export * from './compile';

export { DEFAULT_SPEC_PATH };

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

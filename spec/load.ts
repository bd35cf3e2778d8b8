/**
 * Read and validate an OpenAPI document (3.1, 3.0 or Swagger 2.0, upgraded to 3.1) once, and compile everything
 * the tools need from it: the operation table (for routing) and every ajv validator (for requests, responses
 * and headers). Nothing here runs per request.
 */
import { DEFAULT_SPEC_PATH } from './paths';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readValidated, rememberValidated, type Remembered } from './validation-cache';
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec, type LoadedSpec } from './compile';
import { admitDocumentVocabulary, sharedAjv, takeStrictWarnings } from './ajv';
import { readDocument } from './read-document';
import { hideServerVariableDescriptions } from './schema-workarounds';
import { dereference } from './deref';

export * from './compile';

export { DEFAULT_SPEC_PATH };

export type SpecResult =
  | {
      ok: true;
      spec: LoadedSpec;
      /** Print these once at start: unknown formats and keywords accepted, a Swagger 2.0 conversion … */
      warnings: string[];
      /** Every file the document was read from, the main one first (for a watcher). */
      files: string[];
    }
  | { ok: false; error: string };

/** Load, validate and compile the OpenAPI document; a broken document is an error value naming the problem. */
export async function loadSpec(file: string = DEFAULT_SPEC_PATH): Promise<SpecResult> {
  const remembered = await readValidated(file);
  const fromCache = remembered !== undefined;
  let validated: Remembered;
  try {
    validated = remembered ?? (await validateDocument(file));
  } catch (err) {
    return {
      ok: false,
      error: `invalid OpenAPI document ${file}: ${describeParserError(err)}${await refLocation(file, err)}`,
    };
  }
  // The bundle (internal $refs only) is what is remembered; resolving it in memory keeps one object per
  // component, so shared schemas stay shared (one view, one compile) and recursive ones stay finite.
  const document = dereference(validated.document) as OpenAPIV3_1.Document;
  let spec: LoadedSpec;
  let vocabulary: string[];
  try {
    // Taught before compiling: vendor keywords and unknown formats must not stop ajv's strict mode.
    vocabulary = admitDocumentVocabulary(sharedAjv(), document);
    spec = Object.assign(compileSpec(file, document, !fromCache), { fromCache });
  } catch (err) {
    return { ok: false, error: `cannot compile OpenAPI document ${file}: ${(err as Error).message}` };
  }
  // Remembered only once every check has passed, the meta-schema check of its schemas included.
  if (!fromCache) await rememberValidated(file, validated.files, validated.document, validated.notes);
  const strict = takeStrictWarnings();
  return { ok: true, spec, warnings: [...validated.notes, ...vocabulary, ...strict], files: validated.files };
}

/** Bundle, upgrade to 3.1, then let swagger-parser check it against the OpenAPI schema and resolve every $ref. */
async function validateDocument(file: string): Promise<Remembered> {
  const read = await readDocument(file);
  const bundle = structuredClone(read.document);
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  hideServerVariableDescriptions(read.document);
  // The third argument (options) makes swagger-parser take the object given instead of reading the file again.
  await new SwaggerParser().validate(file, read.document as never, {});
  return { document: bundle, files: read.files, notes: read.notes };
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
  const message = (err as Error).message ?? '';
  const pointer = /\$ref pointer "([^"]+)"/.exec(message)?.[1];
  const missing = /Error opening file (.+?): ENOENT/.exec(message)?.[1];
  if (!pointer && !missing) return '';
  const dir = path.dirname(path.resolve(file));
  const matches = (ref: unknown): boolean =>
    typeof ref === 'string' &&
    (ref === pointer || (missing !== undefined && path.resolve(dir, ref.split('#')[0] ?? '') === missing));
  try {
    const { parse } = await import('yaml'); // only needed when a document is broken
    const raw: unknown = parse(await readFile(file, 'utf8'));
    const found: string[] = [];
    walk(raw, '#', (node, at) => {
      if (matches(node.$ref)) found.push(at);
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

/**
 * Read and validate an OpenAPI document (3.1, 3.0 or Swagger 2.0, upgraded to 3.1) once, and compile everything
 * the tools need from it: the operation table (for routing) and every ajv validator (for requests, responses
 * and headers). Nothing here runs per request.
 */
import { DEFAULT_SPEC_PATH } from './paths';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { readValidated, rememberValidated, type Remembered } from './validation-cache';
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec, type LoadedSpec } from './compile';
import { admitDocumentVocabulary, sharedAjv, takeStrictWarnings } from './ajv';
import { readDocument } from './read-document';
import { checkStructure } from './check-structure';
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
  let document: OpenAPIV3_1.Document;
  try {
    validated = remembered ?? (await validateDocument(file));
    // The bundle (internal $refs only) is what is remembered; resolving it in memory keeps one object per
    // component, so shared schemas stay shared (one view, one compile) and recursive ones stay finite.
    // A pointer that leads nowhere is found here, on a first load.
    // A remembered document was parsed for this load alone: resolved in place, never copied. A fresh one is
    // remembered as bundled below, so it is copied.
    document = dereference(validated.document, { inPlace: fromCache }) as OpenAPIV3_1.Document;
  } catch (err) {
    if (await missing(file)) return { ok: false, error: `file not found: ${asGiven(file)}` };
    return {
      ok: false,
      error: `invalid OpenAPI document ${file}: ${describeParserError(err)}${await refLocation(file, err)}`,
    };
  }
  let spec: LoadedSpec;
  let vocabulary: string[];
  let strict: string[];
  try {
    // Taught before compiling: vendor keywords and unknown formats must not stop ajv's strict mode.
    vocabulary = admitDocumentVocabulary(sharedAjv(), document);
    takeStrictWarnings(); // notes left by validators compiled lazily since the last load are not this one's
    spec = Object.assign(compileSpec(file, document, !fromCache), { fromCache });
    // Taken right after the synchronous compile, so that another load running meanwhile cannot mix its notes in.
    strict = takeStrictWarnings();
  } catch (err) {
    return { ok: false, error: `cannot compile OpenAPI document ${file}: ${(err as Error).message}` };
  }
  // Remembered only once every check has passed, the meta-schema check of its schemas included.
  // The strict-mode line is remembered with the notes: a start from the cache (no full compile) still prints it.
  const notes = fromCache ? validated.notes : [...validated.notes, ...strict];
  if (!fromCache) await rememberValidated(file, validated.files, validated.document, notes);
  return { ok: true, spec, warnings: [...notes, ...spec.notes, ...vocabulary], files: validated.files };
}

/** Bundle, upgrade to 3.1, then check it against the OpenAPI 3.1 schema (its $refs are resolved by the caller). */
async function validateDocument(file: string): Promise<Remembered> {
  const read = await readDocument(file);
  checkStructure(read.document);
  return { document: read.document, files: read.files, notes: read.notes };
}

/** Like loadSpec, but throws; for tools where a bad spec must stop the process anyway. */
export async function loadSpecOrThrow(file: string = DEFAULT_SPEC_PATH): Promise<LoadedSpec> {
  const result = await loadSpec(file);
  if (!result.ok) throw new Error(result.error);
  return result.spec;
}

/** True when the main file itself is not there (not a file it `$ref`s: that one is the document's problem). */
async function missing(file: string): Promise<boolean> {
  return stat(file).then(
    () => false,
    (err: NodeJS.ErrnoException) => err.code === 'ENOENT' || err.code === 'ENOTDIR',
  );
}

/** The path as the user typed it: callers resolve it against the working directory, so undo that there. */
function asGiven(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return path.isAbsolute(file) && relative && !relative.startsWith('..') ? relative : file;
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
  const pointer = /\$ref pointer "([^"]+)"|\$ref (#\S*) points at nothing/
    .exec(message)
    ?.slice(1)
    .find(Boolean);
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

/**
 * Files -> one OpenAPI 3.1 (or 3.2) document, not yet validated: the main file and every file it `$ref`s (schemas,
 * examples, Markdown beside it) bundled into one, upgraded to 3.1, with relative `externalValue` example files
 * read in. Node only.
 */
import { readFile } from 'node:fs/promises';
import type { OpenAPI } from 'openapi-types';
import path from 'node:path';
import { escapePointer } from './schema-walk';
import { inlineExampleRefs } from './inline-example-refs';
import { toOpenApi31 } from './upgrade';
import { mendOpenShapes } from './mend-open-shapes';

type Json = Record<string, unknown>;

export interface ReadDocument {
  /** OpenAPI 3.1 (3.2 when written so), only internal `$ref`s left. */
  document: Json;
  /** Every file read, the main one first: the validation cache hashes them all. */
  files: string[];
  /** Things worth telling at start (a conversion from Swagger 2.0, an example file that cannot be read). */
  notes: string[];
}

/** Read, bundle and upgrade; throws what swagger-parser throws (a YAML error, a missing file or pointer). */
export async function readDocument(file: string): Promise<ReadDocument> {
  // A JSON document with no $ref to another file (GitHub's 13 MB description) is its own bundle: parsing it
  // directly spares swagger-parser's crawl of every internal $ref (1.6 s of GitHub's start), and loading it.
  const single = await singleJsonFile(file);
  // Loaded only when needed, not at the top: a restart on an unchanged, already validated document, and a first
  // start on a single JSON file in OpenAPI 3, never need it (11 MB and 0.1 s).
  const parsed = single ? undefined : await bundle(file);
  const bundled = single ?? (parsed?.document as Json);
  const files = parsed ? parsed.files : [path.resolve(file)];
  const mended = mendOpenShapes(bundled);
  if (bundled.swagger === '2.0') {
    // Checked as written first, so that a problem is named where it is in the user's file; once mended, the
    // mended bundle is checked (a copy: the validator resolves $refs in what it is given).
    const parser = new (await swaggerParser())();
    await (mended.length > 0
      ? parser.validate(structuredClone(bundled) as unknown as OpenAPI.Document)
      : parser.validate(file));
  }
  // Before the upgrade moves `example`: a bundled pointer into one would dangle after it (issue 26.8).
  inlineExampleRefs(bundled);
  const upgraded = await toOpenApi31(bundled);
  if (!upgraded.ok) throw new Error(upgraded.error);
  const examples = await readExternalValues(upgraded.document, path.dirname(path.resolve(file)));
  return {
    document: upgraded.document,
    files: [...files, ...examples.files],
    notes: [...mended, ...upgraded.notes, ...examples.notes],
  };
}

async function swaggerParser() {
  return (await import('@apidevtools/swagger-parser')).default;
}

/** The bundler swagger-parser builds on (json-schema-ref-parser): it bundles without judging the version. */
interface RefBundler {
  bundle(file: string): Promise<unknown>;
  parse(file: string): Promise<unknown>;
  $refs: { paths(): string[] };
}

/**
 * The main file and every file it `$ref`s as one document. swagger-parser refuses a version it does not know
 * (12.1 stops at 3.1: `Unsupported OpenAPI version: 3.2.0`); a 3.2 document is then bundled by the ref parser
 * swagger-parser extends, which reads `$ref`s the same way, and checked against the 3.2 schema by our caller.
 */
async function bundle(file: string): Promise<{ document: unknown; files: string[] }> {
  const SwaggerParser = await swaggerParser();
  const parser = new SwaggerParser();
  try {
    const document = await parser.bundle(file);
    return { document, files: parser.$refs.paths() };
  } catch (err) {
    const Base = Object.getPrototypeOf(SwaggerParser) as new () => RefBundler;
    const main = await new Base().parse(file).catch(() => undefined);
    if (!isOpenApi32(main)) throw err;
    const base = new Base();
    const document = await base.bundle(file);
    return { document, files: base.$refs.paths() };
  }
}

const isOpenApi32 = (document: unknown): boolean =>
  typeof document === 'object' &&
  document !== null &&
  typeof (document as Json).openapi === 'string' &&
  /^3\.2\.\d+/.test((document as Json).openapi as string);

/** The parsed document when `file` is JSON and every `$ref` in it is internal (`#/…`); else undefined. */
async function singleJsonFile(file: string): Promise<Json | undefined> {
  if (path.extname(file).toLowerCase() !== '.json') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined; // swagger-parser reports the problem with its own words
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const stack: unknown[] = [parsed];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !ref.startsWith('#')) return undefined;
    for (const value of Object.values(node))
      if (typeof value === 'object' && value !== null) stack.push(value);
  }
  return parsed as Json;
}

/**
 * An Example Object's `externalValue` naming a file beside the document becomes its `value` (JSON or YAML
 * parsed, anything else as text), so that the tools can answer with it. A URL is left as it is; a file that
 * cannot be read is left too, with a note.
 */
async function readExternalValues(
  document: Json,
  dir: string,
): Promise<{ files: string[]; notes: string[] }> {
  const found: Array<{ example: Json; at: string; target: string }> = [];
  collectExternalValues(document, '#', found, new WeakSet());
  const files: string[] = [];
  const notes: string[] = [];
  for (const { example, at, target } of found) {
    const where = path.resolve(dir, decodeURIComponent(target.replace(/^file:\/\//, '')));
    try {
      const text = await readFile(where, 'utf8');
      example.value = await parseByExtension(where, text);
      delete example.externalValue;
      files.push(where);
    } catch (err) {
      notes.push(
        `example file ${target} (at ${at}/externalValue) cannot be read, left out: ${(err as Error).message}`,
      );
    }
  }
  return { files: [...new Set(files)], notes };
}

const isRemote = (target: string): boolean =>
  /^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('file:');

function collectExternalValues(
  node: unknown,
  at: string,
  found: Array<{ example: Json; at: string; target: string }>,
  seen: WeakSet<object>,
): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  const object = node as Json;
  if (typeof object.externalValue === 'string' && !isRemote(object.externalValue)) {
    found.push({ example: object, at, target: object.externalValue });
  }
  for (const [key, value] of Object.entries(object)) {
    if (key === 'value' || key === 'example' || key === 'default' || key === 'const' || key === 'enum')
      continue;
    collectExternalValues(value, `${at}/${escapePointer(key)}`, found, seen);
  }
}

async function parseByExtension(file: string, text: string): Promise<unknown> {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') return JSON.parse(text) as unknown;
  if (ext === '.yaml' || ext === '.yml') return (await import('yaml')).parse(text) as unknown;
  return text;
}

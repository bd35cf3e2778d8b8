/**
 * Remembers documents swagger-parser has validated, so a restart on unchanged files skips the costly
 * validation (it dominates start-up). An entry is keyed by the main file and holds a hash of every file the
 * document was read from; any changed byte in any of them, or another swagger-parser version, means a new
 * validation; so does another version of swagger-parser or of the upgrader. Only valid documents are ever
 * remembered. `SPEC_VALIDATION_CACHE=off` turns it off (the older name is read too).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import parserPackage from '@apidevtools/swagger-parser/package.json';
import { upgraderVersion } from './upgrade';
import { projectRoot } from './paths';

interface CacheEntry {
  files: Record<string, string>;
  document: unknown;
  notes?: string[];
}

/** A document validated earlier, with what was read to build it and what was worth telling then. */
export interface Remembered {
  document: unknown;
  files: string[];
  notes: string[];
}

// `bundle`: entries hold the bundled document (internal $refs), resolved in memory at load.
const PARSER_VERSION = `${parserPackage.version}+${upgraderVersion()}+bundle+strict-notes+structure`;
const DIR = path.join(projectRoot(), 'node_modules', '.cache', 'spec-validation');

const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
const enabled = (): boolean => process.env.SPEC_VALIDATION_CACHE !== 'off';
const entryPath = (file: string): string =>
  path.join(DIR, `${sha(`${PARSER_VERSION}\0${path.resolve(file)}`)}.json`);

async function hashFiles(files: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of files) out[f] = sha(await readFile(f));
  return out;
}

/** The bundled document validated earlier from exactly these bytes, if any. */
export async function readValidated(file: string): Promise<Remembered | undefined> {
  if (!enabled()) return undefined;
  try {
    const entry = JSON.parse(await readFile(entryPath(file), 'utf8')) as CacheEntry;
    const now = await hashFiles(Object.keys(entry.files));
    const same = Object.entries(entry.files).every(([f, h]) => now[f] === h);
    return same
      ? { document: entry.document, files: Object.keys(entry.files), notes: entry.notes ?? [] }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Remember a document that has just passed validation; best effort (a read-only disk just skips it). */
export async function rememberValidated(
  file: string,
  files: readonly string[],
  document: unknown,
  notes: readonly string[] = [],
): Promise<void> {
  if (!enabled()) return;
  try {
    const entry: CacheEntry = {
      files: await hashFiles(files.length ? files : [path.resolve(file)]),
      document,
      notes: [...notes],
    };
    await mkdir(DIR, { recursive: true });
    await writeFile(entryPath(file), JSON.stringify(entry));
  } catch {
    // A circular document cannot be stored as JSON, and the disk may be read-only: validate next time.
  }
}

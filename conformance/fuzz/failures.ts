/** Saved failures: one JSON file per shrunk failing case, read back by `--replay`. */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FuzzCase, FuzzRequest, Phase } from './cases';

/** Where failures go unless `--failures-dir` says otherwise (relative to the working directory). */
export const DEFAULT_FAILURES_DIR = path.join('.conformance', 'failures');

export interface SavedFailure {
  version: 1;
  operationId: string;
  phase: Phase;
  label: string;
  expect: FuzzCase['expect'];
  /** The shrunk request. */
  request: FuzzRequest;
  problem: string;
  curl: string;
  seed: number;
  savedAt: string;
}

/** The file name of a failure: the same case saved twice is one file. */
export function failureFileName(
  f: Pick<SavedFailure, 'operationId' | 'phase' | 'request' | 'expect'>,
): string {
  const hash = createHash('sha1')
    .update(JSON.stringify([f.expect, f.request]))
    .digest('hex')
    .slice(0, 10);
  return `${f.operationId.replace(/[^A-Za-z0-9_-]/g, '_')}.${f.phase}.${hash}.json`;
}

/** Write `failure` under `dir` (created when missing); the file's path. */
export async function saveFailure(dir: string, failure: SavedFailure): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, failureFileName(failure));
  await writeFile(file, `${JSON.stringify(failure, null, 2)}\n`);
  return file;
}

const isSaved = (v: unknown): v is SavedFailure =>
  typeof v === 'object' &&
  v !== null &&
  (v as SavedFailure).version === 1 &&
  typeof (v as SavedFailure).operationId === 'string' &&
  typeof (v as SavedFailure).request === 'object';

/** Every saved failure under `dir` (sorted by file name), or the first unreadable file as an error. */
export async function loadFailures(
  dir: string,
): Promise<{ ok: true; failures: Array<[string, SavedFailure]> } | { ok: false; error: string }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return { ok: false, error: `--replay: no saved failures in ${dir}` };
  }
  const failures: Array<[string, SavedFailure]> = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(file, 'utf8'));
    } catch {
      return { ok: false, error: `--replay: ${file} is not JSON` };
    }
    if (!isSaved(value)) return { ok: false, error: `--replay: ${file} is not a saved failure` };
    failures.push([file, value]);
  }
  return { ok: true, failures };
}

/** A fixed failure's file is removed: the next replay does not report it again. */
export async function forgetFailure(file: string): Promise<void> {
  await rm(file, { force: true });
}

/**
 * Failures the fuzz phase found, one JSON file each under `.conformance/failures/` (`--failures-dir`), to replay
 * with `--replay` after a fix. A file holds the shrunk request and what was expected, never a key.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** One saved failure. */
export interface SavedFailure {
  rule: string;
  operationId: string;
  method: string;
  /** The operation's path template (an item path is addressed anew at replay). */
  template: string;
  body: unknown;
  /** Query parameters of the request (fuzz.<op>.parameters). */
  query?: Record<string, string>;
  /** The text that stood for the item id (`abc`), when the failure was about it. */
  id?: string;
  /** `accept`: a 2xx was expected; `reject`: one of `statuses`. */
  expect: 'accept' | 'reject';
  statuses: number[];
  label: string;
  seed: number;
  curl: string;
  found: string;
}

export const DEFAULT_FAILURES_DIR = path.join('.conformance', 'failures');

/** Write `failure` into `dir` (created); the file name is stable for the same failure. */
export function saveFailure(dir: string, failure: SavedFailure): string {
  fs.mkdirSync(dir, { recursive: true });
  const id = createHash('sha256')
    .update(
      JSON.stringify([
        failure.rule,
        failure.method,
        failure.template,
        failure.body,
        failure.query,
        failure.id,
      ]),
    )
    .digest('hex')
    .slice(0, 12);
  const file = path.join(dir, `${failure.operationId.replace(/[^\w.-]/g, '_')}-${id}.json`);
  fs.writeFileSync(file, `${JSON.stringify(failure, null, 2)}\n`);
  return file;
}

/** Every saved failure in `dir` (none when it does not exist); a file that is not one is named in `bad`. */
export function loadFailures(dir: string): {
  failures: Array<SavedFailure & { file: string }>;
  bad: string[];
} {
  if (!fs.existsSync(dir)) return { failures: [], bad: [] };
  const failures: Array<SavedFailure & { file: string }> = [];
  const bad: string[] = [];
  for (const name of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = path.join(dir, name);
    try {
      const value = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedFailure;
      if (typeof value.operationId !== 'string' || typeof value.method !== 'string') throw new Error('shape');
      failures.push({ ...value, file });
    } catch {
      bad.push(file);
    }
  }
  return { failures, bad };
}

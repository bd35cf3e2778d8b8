/**
 * Issue 22: a --watch reload of a large document releases the old one: after several reloads, each with a
 * changed document that has been served, the heap holds about one document, not one per reload. Measured in
 * a fresh process (test/support/measure-watch.ts): inside a jest worker, what earlier test files release
 * during the measurement made the first document's share come out negative under load.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
let dir: string;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('holds one document after five reloads of a 2,000-operation document, not six', () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'watch-large-'));
  const out = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '-r',
      path.join(ROOT, 'test', 'support', 'ts-register.js'),
      path.join(ROOT, 'test', 'support', 'measure-watch.ts'),
      dir,
    ],
    { env: { ...process.env, SPEC_VALIDATION_CACHE: 'off' }, encoding: 'utf8', timeout: 110_000 },
  );
  const { oneMb, afterMb } = JSON.parse(out) as { oneMb: number; afterMb: number };
  // A served document of this size holds megabytes; a negative or tiny share would make the bound meaningless.
  expect(oneMb).toBeGreaterThan(5);
  // Six documents held would be about six times `one`; released ones leave at most a fraction of one more.
  expect(afterMb).toBeLessThan(oneMb * 2);
}, 120_000);

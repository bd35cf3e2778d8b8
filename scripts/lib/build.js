// Build only when it is needed (issue 14): `npm start` used to run tsc on every start (3.7 s to the first
// answer). The build is stale when a TypeScript source it compiles, or a tsconfig file, is newer than the
// stamp written after the last successful build (a failed tsc still emits files, so their own mtimes
// cannot tell a good build from a broken one).
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const SOURCE_DIRS = ['spec', 'mock', 'conformance', 'proxy'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json', 'index.ts'];
const STAMP = path.join(ROOT, 'dist', '.build-stamp');

/** Newest mtime (ms) of the files tsconfig.build.json compiles, and of the tsconfig files. */
function newestSourceMs(root = ROOT) {
  let newest = 0;
  for (const dir of SOURCE_DIRS) {
    const base = path.join(root, dir);
    if (!fs.existsSync(base)) continue;
    for (const file of fs.readdirSync(base, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      newest = Math.max(newest, fs.statSync(path.join(base, file)).mtimeMs);
    }
  }
  for (const file of CONFIGS) {
    const p = path.join(root, file);
    if (fs.existsSync(p)) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** True when there is no successful build yet, or a source changed after it. */
function isStale(root = ROOT) {
  const stamp = path.join(root, 'dist', '.build-stamp');
  if (!fs.existsSync(stamp)) return true;
  return newestSourceMs(root) > fs.statSync(stamp).mtimeMs;
}

/** Run tsc -p tsconfig.build.json; on success write the stamp. Returns whether it succeeded. */
function build() {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const started = Date.now();
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) return false;
  fs.mkdirSync(path.dirname(STAMP), { recursive: true });
  // The stamp's time is when the build started: a source saved during the build counts as newer.
  fs.writeFileSync(STAMP, `${new Date(started).toISOString()}\n`);
  fs.utimesSync(STAMP, started / 1000, started / 1000);
  return true;
}

/**
 * Build when stale. Without the sources (an installed package holds only dist/) there is nothing to build.
 * Returns false when a build was needed and failed.
 */
function ensureBuilt(log = (line) => process.stderr.write(`${line}\n`)) {
  if (!fs.existsSync(path.join(ROOT, 'tsconfig.build.json')) || !isStale()) return true;
  log('build: sources changed since the last build, compiling (tsc -p tsconfig.build.json)…');
  return build();
}

module.exports = { ROOT, build, ensureBuilt, isStale, newestSourceMs };

// examples/msw-browser: build its bundle with esbuild and msw's worker with msw's own CLI, and serve the folder as
// plain static files (no mock process: the page's service worker answers /v1/* from the engine in the page).
// The example runs on MSW 3: this repository installs it as `msw3` (npm:msw@3) beside `msw` 2 (the Node 20 tests),
// and the build points the page's `msw` imports at it, as a project with `msw` 3 installed resolves them.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { URL } = require('node:url');
const zlib = require('node:zlib');

const ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLE_DIR = path.join(ROOT, 'examples', 'msw-browser');
const BUNDLE = path.join(EXAMPLE_DIR, 'app.js');
const WORKER = path.join(EXAMPLE_DIR, 'mockServiceWorker.js');
// What the bundle is made of: a change to any of these makes it stale.
const INPUT_DIRS = ['mock/core', 'mock/adapters', 'spec'];
const INPUT_FILES = [
  'examples/msw-browser/main.ts',
  'examples/msw-browser/tsconfig.json',
  'fixtures/keys.json',
  'fixtures/seed.json',
  'package-lock.json',
  'scripts/lib/example-msw.js',
];

function newestInputMs() {
  let newest = 0;
  for (const dir of INPUT_DIRS) {
    for (const file of fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })) {
      if (file.endsWith('.test.ts')) continue;
      newest = Math.max(newest, fs.statSync(path.join(ROOT, dir, file)).mtimeMs);
    }
  }
  for (const file of INPUT_FILES) newest = Math.max(newest, fs.statSync(path.join(ROOT, file)).mtimeMs);
  return newest;
}

/**
 * The package the example's `msw` imports resolve to (MSW 3), and the one whose CLI writes its worker. A build into
 * another folder may take `msw` (MSW 2) instead: the browser test runs the same page on both.
 */
const MSW_PACKAGE = 'msw3';
const mswVersion = (msw = MSW_PACKAGE) =>
  require(path.join(ROOT, 'node_modules', msw, 'package.json')).version;

/** A build's files: the bundle and the worker in `dir`. */
const filesOf = (dir) => ({
  bundle: path.join(dir, 'app.js'),
  worker: path.join(dir, 'mockServiceWorker.js'),
});

/** True when the bundle is missing or older than a source, or the worker is missing or from another msw. */
function isStale({ dir = EXAMPLE_DIR, msw = MSW_PACKAGE } = {}) {
  const { bundle, worker } = filesOf(dir);
  if (!fs.existsSync(bundle) || !fs.existsSync(worker)) return true;
  if (!fs.readFileSync(worker, 'utf8').includes(`'${mswVersion(msw)}'`)) return true;
  return newestInputMs() > fs.statSync(bundle).mtimeMs;
}

/** esbuild plugin: `import x from './file.yaml'` is the parsed document (no YAML parser in the bundle). */
const yamlAsJson = {
  name: 'yaml-as-json',
  setup(build) {
    build.onLoad({ filter: /\.ya?ml$/ }, (args) => ({
      contents: JSON.stringify(require('yaml').parse(fs.readFileSync(args.path, 'utf8'))),
      loader: 'json',
    }));
  },
};

/** Write mockServiceWorker.js into `dir` with msw's own CLI (`msw init <dir> --save=false`), MSW 3's by default. */
function initWorker(dir, msw) {
  const cli = path.join(ROOT, 'node_modules', msw, 'cli', 'index.js');
  const r = spawnSync(process.execPath, [cli, 'init', dir, '--save=false'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0 || !fs.existsSync(filesOf(dir).worker)) {
    throw new Error(`msw init failed (exit ${r.status}): ${r.stderr || r.stdout}`);
  }
}

/** Sizes of the bundle on disk: raw and gzipped (level 9), in bytes. */
function bundleSize(dir = EXAMPLE_DIR) {
  const bytes = fs.readFileSync(filesOf(dir).bundle);
  return { bytes: bytes.length, gzipBytes: zlib.gzipSync(bytes, { level: 9 }).length };
}

/**
 * Build the bundle (esbuild: browser platform, ES2022, minified, with a source map) and the worker (msw's CLI).
 * With `force: false` only when stale. `dir` and `msw` build the page elsewhere (index.html copied) on another msw.
 * Returns { built, bytes, gzipBytes }.
 */
async function buildExample({ force = false, log = () => {}, dir = EXAMPLE_DIR, msw = MSW_PACKAGE } = {}) {
  if (!force && !isStale({ dir, msw })) return { built: false, ...bundleSize(dir) };
  const esbuild = require('esbuild');
  log(`example:msw: bundling examples/msw-browser/main.ts with esbuild (msw: ${msw} ${mswVersion(msw)})…`);
  fs.mkdirSync(dir, { recursive: true });
  if (dir !== EXAMPLE_DIR)
    fs.copyFileSync(path.join(EXAMPLE_DIR, 'index.html'), path.join(dir, 'index.html'));
  await esbuild.build({
    entryPoints: [path.join(EXAMPLE_DIR, 'main.ts')],
    outfile: filesOf(dir).bundle,
    tsconfig: path.join(EXAMPLE_DIR, 'tsconfig.json'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
    // `msw`, `msw/browser` (the page and the entry alike) are MSW 3's.
    alias: { msw },
    plugins: [yamlAsJson],
  });
  log('example:msw: writing mockServiceWorker.js with msw init…');
  initWorker(dir, msw);
  return { built: true, ...bundleSize(dir) };
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * A plain static file server for `dir`: GET and HEAD only, `/` is index.html, nothing outside `dir`, no
 * directory listings; `headers` are added to every answer. Resolves to the listening server once it listens on host:port.
 */
function serveStatic({ dir = EXAMPLE_DIR, port = 0, host = '127.0.0.1', headers = {} } = {}) {
  const root = fs.realpathSync(dir);
  const server = http.createServer((req, res) => {
    const send = (status, body, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { ...headers, 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return send(400, 'bad path\n');
    }
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = path.join(root, path.normalize(pathname));
    if (!file.startsWith(root + path.sep) || pathname.includes('\0')) return send(404, 'not found\n');
    fs.stat(file, (err, stat) => {
      if (err || !stat.isFile()) return send(404, 'not found\n');
      res.writeHead(200, {
        ...headers,
        'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'Content-Length': stat.size,
        'Cache-Control': 'no-store',
      });
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(file).pipe(res);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

module.exports = {
  EXAMPLE_DIR,
  BUNDLE,
  WORKER,
  MSW_PACKAGE,
  mswVersion,
  buildExample,
  bundleSize,
  isStale,
  serveStatic,
};

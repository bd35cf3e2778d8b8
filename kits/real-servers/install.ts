/**
 * Installs a kit server into node_modules/.cache/real-servers/<name> (never committed), once: an npm package by
 * `npm pack` and `npm install --omit=dev`, an EMB service from EMB_DIR (a checkout, or its git directory as the
 * search tool's `fetch` leaves it) with its runtime dependencies from the npm registry. Returns the folder, or
 * the reason it cannot (no registry, no EMB_DIR), for the kit to print and skip.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RealServer } from './servers';

const ROOT = path.join(__dirname, '..', '..');
export const KIT_CACHE = path.join(ROOT, 'node_modules', '.cache', 'real-servers');

/** The installed folder of `server`, or why it could not be installed. */
export function installServer(server: RealServer): { dir: string } | { skip: string } {
  const dir = path.join(KIT_CACHE, server.name);
  if (fs.existsSync(path.join(dir, '.complete'))) return { dir };
  const staging = `${dir}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  try {
    const unpacked =
      'npm' in server.source ? unpackNpm(server.source.npm, staging) : unpackEmb(server.source.emb, staging);
    if ('skip' in unpacked) return unpacked;
    // Published examples pin peers their authors installed with npm 6 (no peer checks): install them the same way.
    const flags = ['--omit=dev', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund'];
    run('npm', ['install', ...flags, '--loglevel=error'], staging);
    if (server.name === 'disease-sh-api') writeDiseaseStart(staging);
    fs.writeFileSync(path.join(staging, '.complete'), `${JSON.stringify(server.source)}\n`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(staging, dir);
    return { dir };
  } catch (err) {
    return { skip: `cannot install from the npm registry: ${(err as Error).message.split('\n')[0]}` };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 600_000,
  });
}

/** `npm pack` the package and unpack its `package/` folder into `into`. */
function unpackNpm(spec: string, into: string): { ok: true } {
  const tarball = path.join(
    into,
    run('npm', ['pack', spec, '--silent'], into).trim().split('\n').pop() ?? '',
  );
  execFileSync('tar', ['xzf', tarball, '-C', into, '--strip-components=1']);
  fs.rmSync(tarball, { force: true });
  return { ok: true };
}

/** The EMB service folder `js_npm/rest/<name>` out of EMB_DIR, its package.json cut to what it runs on. */
function unpackEmb(name: string, into: string): { ok: true } | { skip: string } {
  const emb = process.env.EMB_DIR;
  if (!emb || !fs.existsSync(emb))
    return {
      skip: 'EMB_DIR is not set to a copy of the EMB corpus (WebFuzzing/EMB: a checkout or its git directory)',
    };
  const folder = `js_npm/rest/${name}`;
  if (fs.existsSync(path.join(emb, folder))) fs.cpSync(path.join(emb, folder), into, { recursive: true });
  else {
    extractFromGit(gitDirOf(emb), folder, into);
  }
  // Its development tools (EvoMaster's instrumentation, a local file: package) are not what the service runs on.
  const manifest = JSON.parse(fs.readFileSync(path.join(into, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  delete manifest.devDependencies;
  fs.writeFileSync(path.join(into, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.rmSync(path.join(into, 'package-lock.json'), { force: true });
  return { ok: true };
}

/** The git directory inside EMB_DIR: a checkout's `.git`, a mirror's `repo/` (as `fetch` leaves it), or itself. */
function gitDirOf(emb: string): string {
  for (const inside of ['.git', 'repo'])
    if (fs.existsSync(path.join(emb, inside, 'HEAD'))) return path.join(emb, inside);
  return emb;
}

/** The files of `folder` at HEAD, read one by one (a mirror may lack blobs elsewhere, which `git archive` trips on). */
function extractFromGit(gitDir: string, folder: string, into: string): void {
  const git = (args: string[]) =>
    execFileSync('git', [`--git-dir=${gitDir}`, ...args], {
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  const listing = git(['ls-tree', '-r', '-z', 'HEAD', `${folder}/`])
    .toString('utf8')
    .split('\0');
  for (const line of listing) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line);
    if (!m?.[1] || !m[2]) continue;
    const file = path.join(into, path.relative(folder, m[2]));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, git(['cat-file', 'blob', m[1]]));
    } catch {
      // A copy without its largest files (a shallow mirror): data the service does not start from.
      process.stderr.write(`EMB: ${m[2]} is absent from this copy, left out\n`);
    }
  }
}

/** disease.sh's server module is started by EvoMaster's driver; this is the same start without it. */
function writeDiseaseStart(dir: string): void {
  fs.writeFileSync(
    path.join(dir, 'kit-start.js'),
    "const app = require('./src/server');\napp.listen(Number(process.env.PORT), '127.0.0.1');\n",
  );
}

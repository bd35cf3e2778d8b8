/**
 * An npm package's files, fetched once from the registry (`npm pack`, the ordinary client) and unpacked into
 * node_modules/.cache/petstore-bench (never committed): GitHub's description, APIs.guru's collection. A second
 * process that finds the folder half-written waits for it; a failed fetch leaves nothing behind.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
export const CACHE_ROOT = path.join(ROOT, 'node_modules', '.cache', 'petstore-bench');

/**
 * The folder `package/` of `spec` (`name@version`) unpacked under `folder`, only `members` of the tarball
 * (all when empty). Throws naming the package when npm cannot fetch it.
 */
export function cachedPackage(spec: string, folder: string, members: string[] = []): string {
  const dir = path.join(CACHE_ROOT, folder);
  const done = path.join(dir, '.complete');
  if (fs.existsSync(done)) return path.join(dir, 'package');
  const staging = `${dir}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  try {
    const out = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', staging], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    const tarball = path.join(staging, out.trim().split('\n').pop() ?? '');
    execFileSync('tar', ['xzf', tarball, '-C', staging, ...members], { timeout: 300_000 });
    fs.rmSync(tarball, { force: true });
    fs.writeFileSync(path.join(staging, '.complete'), `${spec}\n`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(staging, dir);
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    // Another process may have finished the same fetch meanwhile.
    if (fs.existsSync(done)) return path.join(dir, 'package');
    throw new Error(`cannot fetch ${spec} from the npm registry: ${(err as Error).message.split('\n')[0]}`);
  }
  return path.join(dir, 'package');
}

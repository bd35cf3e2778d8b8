/**
 * GitHub's own REST description (the npm package `@octokit/openapi`, 13 MB, 1,223 operations), fetched from the
 * npm registry on first use into node_modules/.cache (never committed), for the large-document bench and test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_ROOT, cachedPackage } from './package-cache';

export const GITHUB_PACKAGE = '@octokit/openapi@23.0.2';
const FOLDER = 'octokit-openapi-23.0.2';
export const GITHUB_DOCUMENT = path.join(CACHE_ROOT, FOLDER, 'package', 'generated', 'api.github.com.json');

/** The document's path, downloading and unpacking the package first when needed; throws when it cannot. */
export function githubDocument(): string {
  if (fs.existsSync(GITHUB_DOCUMENT)) return GITHUB_DOCUMENT;
  cachedPackage(GITHUB_PACKAGE, FOLDER, ['package/generated/api.github.com.json']);
  return GITHUB_DOCUMENT;
}

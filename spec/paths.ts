/** Locations of the project's files, the same from the TypeScript sources and from dist/. */
import fs from 'node:fs';
import path from 'node:path';

/** The folder that holds package.json, found by walking up from this file. */
export function projectRoot(from: string = __dirname): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

export const DEFAULT_SPEC_PATH = path.join(projectRoot(), 'spec', 'openapi.yaml');

/** The package's command whose name ends in `-${role}` (its `bin` entry, e.g. the mock's), else `role` itself. */
export function commandName(role: 'mock' | 'conformance'): string {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as {
      bin?: Record<string, string>;
    };
    return Object.keys(manifest.bin ?? {}).find((name) => name.endsWith(`-${role}`)) ?? role;
  } catch {
    return role;
  }
}

/** The `version` of the package.json this code belongs to (the installed package's own, not the caller's). */
export function packageVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
}

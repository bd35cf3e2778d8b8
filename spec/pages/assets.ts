/**
 * Static files of the pages: Swagger UI's prebuilt bundle from node_modules (swagger-ui-dist, served by the
 * mock itself so the reference works offline) and the inspector's own script and styles. Read on first use,
 * then kept in memory. Only the files named here are served; nothing is looked up from the request path.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../paths';

const swaggerDir = (): string => path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ownDir = (): string => path.join(projectRoot(), 'spec', 'pages', 'static');

const TYPES = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', png: 'image/png' };

/** Asset name -> where it lives and its content type. */
export const ASSETS: Record<string, { dir: () => string; type: string }> = {
  'swagger-ui.css': { dir: swaggerDir, type: TYPES.css },
  'swagger-ui-bundle.js': { dir: swaggerDir, type: TYPES.js },
  'favicon-32x32.png': { dir: swaggerDir, type: TYPES.png },
  'docs.js': { dir: ownDir, type: TYPES.js },
  'inspector.js': { dir: ownDir, type: TYPES.js },
  'proxy-inspector.js': { dir: ownDir, type: TYPES.js },
  'pages.css': { dir: ownDir, type: TYPES.css },
};

const cache = new Map<string, Promise<Buffer>>();

/** The bytes and type of a named asset, or undefined for a name that is not served. */
export async function readAsset(name: string): Promise<{ body: Buffer; type: string } | undefined> {
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) return undefined;
  let bytes = cache.get(name);
  if (!bytes) {
    bytes = readFile(path.join(asset.dir(), name));
    cache.set(name, bytes);
    bytes.catch(() => cache.delete(name));
  }
  return { body: await bytes, type: asset.type };
}

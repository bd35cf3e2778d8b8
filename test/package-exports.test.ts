/**
 * package.json `exports`, as a user of the built package reaches it: `petstore-contract-tools` (createMockServer,
 * runConformance), `/fetch` (createFetchHandler) and `/msw` (createMswHandlers) resolve by the package name to
 * dist/, from CommonJS and from ES modules, with their types; `/fetch` and `/msw` load no node:* module and bundle
 * for a browser with esbuild.
 *
 * The build checked is dist/ when it is fresh (CI builds first); otherwise a fresh build into a temporary package
 * under test-output/, so this test never rewrites dist/ while other tests run it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const ROOT = path.join(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isStale } = require('../scripts/lib/build') as { isStale: () => boolean };

interface ExportTarget {
  types: string;
  default: string;
}
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, ExportTarget | string>;
};

/** A package directory holding package.json and a build in dist/. */
function packageUnderTest(): { dir: string; cleanup: () => void } {
  if (!isStale()) return { dir: ROOT, cleanup: () => {} };
  fs.mkdirSync(path.join(ROOT, 'test-output'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(ROOT, 'test-output', 'exports-'));
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  const tsc = require.resolve('typescript/bin/tsc');
  execFileSync(
    process.execPath,
    [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(dir, 'dist')],
    { cwd: ROOT, stdio: 'pipe' },
  );
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const node = (cwd: string, args: string[]): string =>
  execFileSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: 'pipe' });

describe('package.json exports', () => {
  let dir: string;
  let cleanup = () => {};

  beforeAll(() => {
    ({ dir, cleanup } = packageUnderTest());
  }, 180_000);
  afterAll(() => cleanup());

  it('maps ., ./fetch and ./msw to built modules and their declarations in dist/', () => {
    expect(Object.keys(pkg.exports)).toEqual(expect.arrayContaining(['.', './fetch', './msw']));
    for (const sub of ['.', './fetch', './msw']) {
      const target = pkg.exports[sub] as ExportTarget;
      expect(target.types).toMatch(/^\.\/dist\/.+\.d\.ts$/);
      expect(target.default).toMatch(/^\.\/dist\/.+\.js$/);
      expect(fs.existsSync(path.join(dir, target.types))).toBe(true);
      expect(fs.existsSync(path.join(dir, target.default))).toBe(true);
    }
  });

  it('require() by the package name gives each entry its functions', () => {
    const out = node(dir, [
      '-e',
      `const root = require('${pkg.name}'), f = require('${pkg.name}/fetch'), m = require('${pkg.name}/msw');
       console.log(JSON.stringify([typeof root.createMockServer, typeof root.runConformance,
         typeof f.createFetchHandler, typeof m.createMswHandlers]));`,
    ]);
    expect(JSON.parse(out)).toEqual(['function', 'function', 'function', 'function']);
  });

  it('import by the package name from an ES module works too', () => {
    const out = node(dir, [
      '--input-type=module',
      '-e',
      `import { createMockServer, runConformance } from '${pkg.name}';
       import { createFetchHandler } from '${pkg.name}/fetch';
       import { createMswHandlers } from '${pkg.name}/msw';
       console.log([createMockServer, runConformance, createFetchHandler, createMswHandlers].map((f) => typeof f).join());`,
    ]);
    expect(out.trim()).toBe('function,function,function,function');
  });

  it('./fetch and ./msw load no node:* module of their own, and their handler answers', async () => {
    const out = node(dir, [
      '-e',
      `const Module = require('node:module');
       const dist = require('node:path').join(${JSON.stringify(dir)}, 'dist');
       const load = Module._load, builtins = [];
       Module._load = function (request, parent, isMain) {
         if (Module.isBuiltin(request) && parent && parent.filename.startsWith(dist)) builtins.push(request);
         return load.call(this, request, parent, isMain);
       };
       const { createFetchHandler } = require('${pkg.name}/fetch');
       require('${pkg.name}/msw');
       Module._load = load;
       const document = require('yaml').parse(require('node:fs').readFileSync('${ROOT}/spec/openapi.yaml', 'utf8'));
       createFetchHandler({ document, keys: [{ key: 'k1', plan: 'free' }] })
         .then((handle) => handle(new Request('http://x/v1/categories', { headers: { authorization: 'Bearer k1' } })))
         .then((res) => console.log(JSON.stringify({ builtins, status: res.status })));`,
    ]);
    expect(JSON.parse(out)).toEqual({ builtins: [], status: 200 });
  });

  it('./fetch and ./msw bundle for a browser by the package name (esbuild, platform browser)', async () => {
    const result = await esbuild.build({
      stdin: {
        contents: `export { createFetchHandler } from '${pkg.name}/fetch';
                   export { createMswHandlers } from '${pkg.name}/msw';`,
        resolveDir: dir,
        loader: 'js',
      },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      minify: true,
      metafile: true,
      logLevel: 'silent',
      // Not the repository's tsconfig: its paths map the package name to the sources, for the repository's own use.
      tsconfigRaw: '{}',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((file) => file.includes('dist/mock/adapters/fetch.js'))).toBe(true);
    expect(inputs.filter((file) => /^node:|^(fs|path|crypto|buffer|stream)$/.test(file))).toEqual([]);
  });

  it("the engine alone (./fetch) bundles for a browser under 185 KB gzipped (faker's class and base locale are 40 KB of it), with no process or Buffer", async () => {
    const result = await esbuild.build({
      stdin: {
        contents: `export { createFetchHandler } from '${pkg.name}/fetch';`,
        resolveDir: dir,
        loader: 'js',
      },
      tsconfigRaw: '{}',
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
    });
    const bundle = result.outputFiles[0]!;
    expect(gzipSync(bundle.contents, { level: 9 }).length).toBeLessThan(185_000);
    // Nothing of Node's reaches the browser: no process, no Buffer, no require of a module. faker's base64
    // helpers use Buffer only behind `typeof Buffer` (btoa otherwise): those guarded uses are taken out first.
    const unguarded = bundle.text
      .replace(
        /typeof Buffer>"u"\|\|[\s\S]{0,200}?:\w+=>Buffer\.from\(\w+\)\.toString\("base64(?:url)?"\)/g,
        '',
      )
      .replace(/try\{return typeof Buffer\.from\("test"\)/g, '');
    expect(unguarded.match(/\bprocess\.\w+|\bBuffer\b|\bsetImmediate\b/g)).toBeNull();
  });

  it('the declarations type a consumer using node16 resolution', () => {
    const consumer = path.join(dir, 'dist', 'exports-consumer.ts');
    fs.writeFileSync(
      consumer,
      `import { createMockServer, runConformance, type ConformanceOptions, type MockServer, type Report } from '${pkg.name}';
       import { createFetchHandler, type FetchHandler } from '${pkg.name}/fetch';
       import { createMswHandlers } from '${pkg.name}/msw';
       import type { HttpHandler } from 'msw';
       export const server: (o?: { quiet?: boolean }) => Promise<MockServer> = createMockServer;
       export const run: (o: ConformanceOptions) => Promise<Report> = runConformance;
       export const fetchHandler: (o: { document: never }) => Promise<FetchHandler> = createFetchHandler;
       export const msw: (o: { document: never; baseUrl?: string }) => Promise<HttpHandler[]> = createMswHandlers;
       // @ts-expect-error the options are typed: keys is a list or a keys file, not a number
       createFetchHandler({ document: {} as never, keys: 1 });`,
    );
    try {
      const tsc = require.resolve('typescript/bin/tsc');
      node(dir, [
        tsc,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'node16',
        '--types',
        'node',
        consumer,
      ]);
    } catch (error) {
      throw new Error(String((error as { stdout?: string }).stdout ?? error));
    } finally {
      fs.rmSync(consumer, { force: true });
    }
  }, 60_000);
});

/**
 * Issue 15, end to end and slow (it installs from the npm registry or the local npm cache): `npm pack` of a
 * copy of this working tree (so the prepack build never touches the tree's own dist/), the tarball installed
 * into an empty temporary folder with production dependencies only, both commands run through `npx` from
 * folders that have nothing to do with the repository, against each other; then the CI recipes in
 * examples/ci/ parsed, and the exact commands they run executed with the environment they set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createMockServer, type MockServer } from '../mock/node';

const ROOT = path.resolve(__dirname, '..');
const SLOW = 600_000;
const STEP = 240_000;
/** Not copied into the packing copy: installs, builds, outputs and version control. */
const SKIP = new Set(['node_modules', 'dist', '.git', 'test-output', 'coverage']);
/**
 * Every process this file started. Each runs in its own process group: `npx` starts the command through
 * `npm exec` and a shell, and a signal to npx alone would leave the command running.
 */
const children = new Set<ChildProcess>();
function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
process.once('exit', () => children.forEach((c) => killGroup(c)));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a user's shell: without what `npm test` puts in ours (npm_config_local_prefix and the
 * like would point npm at this repository).
 */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^npm_/i.test(k) && k !== 'INIT_CWD' && !k.startsWith('PETSTORE_')) env[k] = v;
  // Offline-ish: the local npm cache first, the registry only for what it lacks.
  return { ...env, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false', ...extra };
}

/** Run a command to its end (no shell unless asked). */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = cleanEnv(),
  timeoutMs = STEP,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => killGroup(child), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

const show = (r: Run): string =>
  `exit ${r.code}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`;

function expectOk(r: Run): void {
  if (r.code !== 0) throw new Error(show(r));
}

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

let work: string;
let tarball: string;
let packed: { size: number; unpackedSize: number; files: { path: string }[] };

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-package-'));
  const copy = path.join(work, 'repo');
  fs.cpSync(ROOT, copy, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(ROOT, src);
      return !SKIP.has(rel.split(path.sep)[0] ?? '') && !rel.startsWith(path.join('bench', 'results'));
    },
  });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  const out = path.join(work, 'out');
  fs.mkdirSync(out);
  const r = await run('npm', ['pack', '--json', '--pack-destination', out], copy);
  expectOk(r);
  // The prepack build's own output goes to stderr; stdout is the JSON.
  const info = (JSON.parse(r.stdout) as (typeof packed & { filename: string })[])[0];
  if (!info) throw new Error(show(r));
  packed = info;
  tarball = path.join(out, info.filename);
}, SLOW);

afterAll(() => {
  children.forEach((c) => killGroup(c));
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the build, the spec, scenarios, fixtures and pages, and no tests, benchmarks or screenshots', () => {
    const files = packed.files.map((f) => f.path);
    for (const needed of [
      'bin/petstore-mock.js',
      'bin/petstore-conformance.js',
      'dist/mock/node/main.js',
      'dist/conformance/cli.js',
      'dist/proxy/main.js',
      'dist/proxy/judge/har-cli.js',
      'spec/openapi.yaml',
      'conformance/scenarios/categories.yaml',
      'fixtures/keys.json',
      'fixtures/seed.json',
      'spec/pages/static/inspector.js',
      'README.md',
    ])
      expect(files).toContain(needed);
    const unwanted = files.filter((f) =>
      /(^|\/)(test|tests|bench|screenshots|e2e|examples|scripts|\.ci|docs)\/|\.test\.|(?<!\.d)\.ts$|\.map$|\.png$|\.tgz$/.test(
        f,
      ),
    );
    expect(unwanted).toEqual([]);
    // Sizes for the README's "Install" section.
    process.stdout.write(
      `petstore package: ${packed.files.length} files, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked\n`,
    );
    expect(packed.size).toBeLessThan(650_000);
    // The README's "Install" section states both sizes; they stay within 15 % of what npm pack measures.
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const stated = /the tarball is (\d+) kB packed and (\d+) kB unpacked/.exec(readme);
    expect(stated).not.toBeNull();
    expect(Math.abs(Number(stated?.[1]) * 1000 - packed.size) / packed.size).toBeLessThan(0.15);
    expect(Math.abs(Number(stated?.[2]) * 1000 - packed.unpackedSize) / packed.unpackedSize).toBeLessThan(
      0.15,
    );
  });
});

describe('installed into an empty folder with production dependencies only', () => {
  let app: string;
  let elsewhere: string;
  let mock: ChildProcess | undefined;

  beforeAll(async () => {
    app = path.join(work, 'app');
    elsewhere = path.join(work, 'elsewhere', 'deeper');
    fs.mkdirSync(app);
    fs.mkdirSync(elsewhere, { recursive: true });
    fs.writeFileSync(path.join(app, 'package.json'), '{ "name": "qa-workspace", "private": true }\n');
    expectOk(await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', tarball], app));
  }, SLOW);

  afterAll(() => {
    if (mock) killGroup(mock);
  });

  it('installs no development dependency', () => {
    const modules = path.join(app, 'node_modules');
    for (const dev of [
      'jest',
      'typescript',
      'ts-jest',
      'tsx',
      'eslint',
      'prettier',
      'supertest',
      'playwright-core',
    ])
      expect(fs.existsSync(path.join(modules, dev))).toBe(false);
    expect(
      fs.existsSync(path.join(modules, 'petstore-contract-tools', 'dist', 'mock', 'node', 'main.js')),
    ).toBe(true);
  });

  it(
    'the exports load from the install: ., ./fetch (its handler answering), and ./msw asks for its optional peer msw',
    async () => {
      const script = `
      const root = require('petstore-contract-tools');
      const { createFetchHandler } = require('petstore-contract-tools/fetch');
      let msw = 'loaded';
      try { require('petstore-contract-tools/msw'); } catch (error) { msw = error.code + ' ' + error.message.split('\\n')[0]; }
      const spec = require.resolve('petstore-contract-tools/package.json').replace(/package\\.json$/, 'spec/openapi.yaml');
      const document = require('yaml').parse(require('node:fs').readFileSync(spec, 'utf8'));
      createFetchHandler({ document, keys: [{ key: 'k', plan: 'free' }], seed: { categories: [{ name: 'dog' }] } })
        .then((handle) => handle(new Request('http://x/v1/categories', { headers: { authorization: 'Bearer k' } })))
        .then(async (res) => console.log(JSON.stringify({
          root: [typeof root.createMockServer, typeof root.runConformance], status: res.status, body: await res.json(), msw })));`;
      const r = await run(process.execPath, ['-e', script], app);
      expectOk(r);
      const out = JSON.parse(r.stdout) as { root: string[]; status: number; body: unknown; msw: string };
      expect(out.root).toEqual(['function', 'function']);
      expect(out.status).toBe(200);
      expect(out.body).toEqual([{ id: 1, name: 'dog' }]);
      // msw is an optional peer dependency: not installed with the package, asked for by name when ./msw loads.
      expect(out.msw).toMatch(/^MODULE_NOT_FOUND Cannot find module 'msw'/);
    },
    STEP,
  );

  it.each(['petstore-mock', 'petstore-conformance'])(
    '%s --version and --help work through npx',
    async (command) => {
      const v = await run('npx', ['--no-install', command, '--version'], app);
      expectOk(v);
      expect(v.stdout).toBe(`${version}\n`);
      const h = await run('npx', ['--no-install', command, '--help'], app);
      expectOk(h);
      expect(h.stdout).toMatch(new RegExp(`^Usage: ${command}`));
      expect(h.stdout).toMatch(/--version/);
      // The bins send --proxy and --judge-har to the proxy's wing (bin/commands.js).
      if (command === 'petstore-mock') expect(h.stdout).toMatch(/--proxy URL/);
      else {
        const judged = await run('npx', ['--no-install', command, '--judge-har', 'missing.har'], app);
        expect(judged.code).toBe(2);
        expect(judged.stderr).toMatch(/cannot read missing\.har/);
      }
    },
    STEP,
  );

  it(
    'npx petstore-mock serves the packaged spec, keys and seed; npx petstore-conformance passes against it from another folder',
    async () => {
      const port = await freePort();
      mock = spawn('npx', ['--no-install', 'petstore-mock', '--port', String(port), '--quiet'], {
        cwd: app,
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      children.add(mock);
      let output = '';
      mock.stdout?.on('data', (d: Buffer) => (output += d.toString()));
      mock.stderr?.on('data', (d: Buffer) => (output += d.toString()));
      const until = Date.now() + 60_000;
      while (!/listening on http:\/\/127\.0\.0\.1:\d+\/v1/.test(output)) {
        if (Date.now() > until || mock.exitCode !== null) throw new Error(`mock did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const base = `http://127.0.0.1:${port}/v1`;
      expect(output).toContain(`listening on ${base}`);
      expect(output).toMatch(/enterprise\s+ent-demo-key/); // the demo keys from inside the package
      const seeded = await fetch(`${base}/categories`, {
        headers: { Authorization: 'Bearer free-demo-key' },
      });
      expect(seeded.status).toBe(200);
      expect(((await seeded.json()) as unknown[]).length).toBeGreaterThan(0); // the package's seed
      const docs = await fetch(`http://127.0.0.1:${port}/_mock/ui/swagger-ui-bundle.js`);
      expect(docs.status).toBe(200); // swagger-ui-dist is a production dependency

      // From a folder unrelated to the repository and to the install: npx finds the installed commands
      // through --prefix; the reports land in the current folder.
      const env = cleanEnv({ PETSTORE_API_KEY: 'ent-demo-key' });
      const r = await run(
        'npx',
        [
          '--no',
          '--prefix',
          app,
          'petstore-conformance',
          '--target',
          base,
          '--report',
          'junit=out/junit.xml',
        ],
        elsewhere,
        env,
      );
      expectOk(r);
      expect(r.stdout).toMatch(/\d+ passed, 0 failed/);
      expect(r.stdout + r.stderr).not.toContain('ent-demo-key');
      expect(fs.readFileSync(path.join(elsewhere, 'out', 'junit.xml'), 'utf8')).toMatch(/<testsuites/);
      const exited = new Promise((resolve) => mock?.once('close', resolve));
      killGroup(mock, 'SIGTERM');
      await exited;
    },
    STEP,
  );
});

/** What a CI recipe runs: its steps' shell lines and the environment it sets for them. */
interface Recipe {
  steps: { run: string; env: Record<string, string> }[];
  /** Where the reports are kept as artifacts, and whether that happens on failure too. */
  artifacts: { paths: string[]; always: boolean };
}

function githubRecipe(file: string): Recipe {
  const doc = parseYaml(fs.readFileSync(file, 'utf8')) as {
    jobs: Record<
      string,
      {
        steps: {
          run?: string;
          uses?: string;
          if?: string;
          env?: Record<string, string>;
          with?: { path?: string };
        }[];
      }
    >;
  };
  const job = Object.values(doc.jobs)[0];
  if (!job) throw new Error('no job');
  const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
  return {
    steps: job.steps.filter((s) => s.run).map((s) => ({ run: s.run ?? '', env: s.env ?? {} })),
    artifacts: { paths: upload?.with?.path ? [upload.with.path] : [], always: upload?.if === 'always()' },
  };
}

function gitlabRecipe(file: string): Recipe {
  const doc = parseYaml(fs.readFileSync(file, 'utf8')) as Record<
    string,
    { script?: string[]; variables?: Record<string, string>; artifacts?: { when?: string; paths?: string[] } }
  >;
  const job = Object.values(doc).find((j) => Array.isArray(j.script));
  if (!job?.script) throw new Error('no job with a script');
  return {
    steps: job.script.map((line) => ({ run: line, env: job.variables ?? {} })),
    artifacts: { paths: job.artifacts?.paths ?? [], always: job.artifacts?.when === 'always' },
  };
}

/** `${{ secrets.X }}` / `${{ vars.X }}` (GitHub) replaced by the values the CI system would give. */
function substitute(value: string, settings: Record<string, string>): string {
  return value.replace(/\$\{\{\s*(?:secrets|vars)\.([A-Z_]+)\s*\}\}/g, (_, name: string) => {
    const v = settings[name];
    if (v === undefined) throw new Error(`the recipe reads ${name}, which the test does not provide`);
    return v;
  });
}

describe.each([
  ['github-actions.yml', githubRecipe],
  ['gitlab-ci.yml', gitlabRecipe],
])('examples/ci/%s', (name, read) => {
  let server: MockServer;
  let target: string;
  const KEY = 'ci-recipe-secret-key-7f3a';

  beforeAll(async () => {
    server = await createMockServer({ keys: [{ key: KEY, plan: 'pro' }], seedFile: null, quiet: true });
    target = await server.listen(0, '127.0.0.1');
  });
  afterAll(() => server.close());

  it(
    'installs the package, runs the runner against the staging URL from a secret, and writes both reports',
    async () => {
      const recipe = read(path.join(ROOT, 'examples', 'ci', name));
      const runner = recipe.steps.filter((s) => s.run.includes('petstore-conformance'));
      expect(runner).toHaveLength(1);
      const command = runner[0]?.run ?? '';
      expect(command).toContain('$STAGING_URL');
      // The key is never on the command line or echoed: the runner reads it from the environment.
      for (const step of recipe.steps) expect(step.run).not.toMatch(/PETSTORE_API_KEY|echo|printenv|set -x/);
      expect(recipe.artifacts.always).toBe(true);

      // What the CI system provides: the secrets (or masked variables) and where the tarball is.
      const settings = { STAGING_URL: target, PETSTORE_API_KEY: KEY, PETSTORE_TOOLS_PACKAGE: tarball };
      const workspace = fs.mkdtempSync(path.join(work, `ci-${name}-`));
      let last: Run | undefined;
      for (const step of recipe.steps) {
        const stepEnv = Object.fromEntries(
          Object.entries(step.env).map(([k, v]) => [k, substitute(v, settings)]),
        );
        // GitLab exposes project CI/CD variables to every job; GitHub only what `env:` maps.
        const ciEnv = name.startsWith('gitlab') ? settings : {};
        last = await run(
          'bash',
          ['-eo', 'pipefail', '-c', step.run],
          workspace,
          cleanEnv({ ...ciEnv, ...stepEnv }),
        );
        expectOk(last);
      }
      expect(last?.stdout).toMatch(/\d+ passed, 0 failed/);
      expect(`${last?.stdout}${last?.stderr}`).not.toContain(KEY);
      const junit = fs.readFileSync(path.join(workspace, 'reports', 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<testsuites[^>]* failures="0"/);
      expect(junit).not.toContain(KEY);
      const html = fs.readFileSync(path.join(workspace, 'reports', 'report.html'), 'utf8');
      expect(html).toMatch(/^<!doctype html>/i);
      expect(html).not.toContain(KEY);
      // The artifact paths cover both report files.
      for (const file of ['reports/junit.xml', 'reports/report.html'])
        expect(
          recipe.artifacts.paths.some((p) => file.startsWith(p.replace(/\/?$/, '/')) || p === file),
        ).toBe(true);
    },
    SLOW,
  );
});

/** The MSW majors the `./msw` entry supports; MSW 3 declares `engines: node >=22.12` (CI's Node 20 skips it). */
const [nodeMajor = 0, nodeMinor = 0] = process.versions.node.split('.').map(Number);
const MSW_MAJORS = [
  { msw: 2, runs: true },
  { msw: 3, runs: nodeMajor > 22 || (nodeMajor === 22 && nodeMinor >= 12) },
];
for (const { msw, runs } of MSW_MAJORS) {
  if (!runs)
    process.stderr.write(
      `skipping the install with msw@${msw}: it needs Node >= 22.12, this is ${process.version}\n`,
    );
  (runs ? describe : describe.skip)(`installed into an empty folder beside msw@${msw}`, () => {
    let app: string;

    beforeAll(async () => {
      app = path.join(work, `app-msw${msw}`);
      fs.mkdirSync(app);
      fs.writeFileSync(path.join(app, 'package.json'), '{ "name": "frontend-tests", "private": true }\n');
      // Its peer range admits this major: npm refuses (ERESOLVE) a peer it does not.
      expectOk(await run('npm', ['install', '--no-audit', '--no-fund', tarball, `msw@^${msw}`], app));
    }, SLOW);

    it(
      "./msw runs on it from an ES module under setupServer: a create, the list, 401, 400, and MSW's reset",
      async () => {
        fs.writeFileSync(
          path.join(app, 'check.mjs'),
          `import fs from 'node:fs';
          import { createRequire } from 'node:module';
          import path from 'node:path';
          import { setupServer } from 'msw/node';
          import { createMswHandlers } from 'petstore-contract-tools/msw';
          const require = createRequire(import.meta.url);
          const root = path.dirname(require.resolve('petstore-contract-tools/package.json'));
          const document = require('yaml').parse(fs.readFileSync(path.join(root, 'spec/openapi.yaml'), 'utf8'));
          const keys = JSON.parse(fs.readFileSync(path.join(root, 'fixtures/keys.json'), 'utf8'));
          const server = setupServer(...(await createMswHandlers({ document, keys, seed: { categories: [{ name: 'dog' }] } })));
          server.listen({ ${msw === 3 ? 'onUnhandledFrame' : 'onUnhandledRequest'}: 'error' });
          const api = 'https://petstore.test/v1/categories';
          const auth = { authorization: 'Bearer pro-demo-key' };
          const post = (body) => fetch(api, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body });
          const names = async () => (await (await fetch(api, { headers: auth })).json()).map((c) => c.name);
          const created = await post('{"name":"cat"}');
          const listed = await names();
          const anonymous = await fetch(api);
          const invalid = await post('{"name":42}');
          server.resetHandlers();
          const afterReset = await names();
          server.close();
          console.log(JSON.stringify({ msw: require('msw/package.json').version, created: created.status, listed,
            anonymous: [anonymous.status, anonymous.headers.get('x-ratelimit-limit')], invalid: invalid.status, afterReset }));`,
        );
        const r = await run(process.execPath, ['check.mjs'], app);
        expectOk(r);
        const out = JSON.parse(r.stdout) as Record<string, unknown>;
        expect(out).toEqual({
          msw: expect.stringMatching(new RegExp(`^${msw}\\.`)),
          created: 201,
          listed: ['dog', 'cat'],
          anonymous: [401, expect.stringMatching(/^\d+$/)],
          invalid: 400,
          afterReset: ['dog'],
        });
      },
      STEP,
    );

    it(
      './msw loads from CommonJS too, its handlers those of the msw installed',
      async () => {
        const script = `
      const { createMswHandlers } = require('petstore-contract-tools/msw');
      const { HttpHandler } = require('msw');
      const document = require('yaml').parse(require('node:fs').readFileSync(
        require.resolve('petstore-contract-tools/package.json').replace(/package\\.json$/, 'spec/openapi.yaml'), 'utf8'));
      createMswHandlers({ document }).then((handlers) =>
        console.log(JSON.stringify(handlers.map((h) => h instanceof HttpHandler).concat(typeof handlers.reset))));`;
        const r = await run(process.execPath, ['-e', script], app);
        expectOk(r);
        expect(JSON.parse(r.stdout)).toEqual([true, true, 'function']);
      },
      STEP,
    );
  });
}

/**
 * The docs run: every shell block of README.md and docs/*.md either runs here, in order, page by page (against
 * the fixtures it names, the servers it starts stopped after the page, its shown output found in what it
 * prints), or says on the line before it what it needs that a test cannot have (`<!-- needs: staging -->`, the
 * reasons in test/support/doc-blocks.ts). `npx petstore-*`, `npm start` and `npm run conformance` run this
 * checkout; a port the page names (4010…) is a free one here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { blocksOf, docPages, NEEDS, type DocBlock } from './support/doc-blocks';

const ROOT = path.join(__dirname, '..');
const SHIMS = path.join(__dirname, 'support', 'doc-shims');
const LINKED = ['fixtures', 'spec', 'examples', 'conformance'];

const blocks = docPages(ROOT).flatMap((page) =>
  blocksOf(page, fs.readFileSync(path.join(ROOT, page), 'utf8')),
);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A reader's working folder: the repository's data folders linked in, everything a command writes kept apart. */
function workFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-run-'));
  for (const name of LINKED) fs.symlinkSync(path.join(ROOT, name), path.join(dir, name));
  return dir;
}

/** Stops the servers a page started (their pids only), then removes the folder. */
function cleanUp(dir: string): void {
  const pids = path.join(dir, 'pids');
  if (fs.existsSync(pids))
    for (const pid of fs.readFileSync(pids, 'utf8').split('\n').filter(Boolean))
      try {
        process.kill(Number(pid), 'SIGTERM');
      } catch {
        // already gone
      }
  fs.rmSync(dir, { recursive: true, force: true });
}

const normal = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Runs one block; the ports it names are free ones (`ports`). */
function run(block: Pick<DocBlock, 'code'>, dir: string, ports: Map<string, string>) {
  const code = block.code.replace(/\b40\d\d\b/g, (p) => ports.get(p) ?? p);
  return spawnSync('bash', ['-c', code], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...process.env,
      PATH: `${SHIMS}:${process.env.PATH ?? ''}`,
      DOCS_REPO: ROOT,
      DOCS_SHIMS: SHIMS,
      DOCS_WORK: dir,
      DOCS_PIDS: path.join(dir, 'pids'),
      DOCS_PORT_4010: ports.get('4010') ?? '0',
      NO_COLOR: '1',
    },
  });
}

beforeAll(() => {
  execFileSync('node', [path.join(ROOT, 'scripts', 'build.js'), '--if-stale'], { stdio: 'ignore' });
}, 120_000);

it('every shell block runs here or names what it needs, from the known list', () => {
  const unknown = blocks.flatMap((b) =>
    b.needs.filter((n) => !(n in NEEDS)).map((n) => `${b.page}:${b.line} needs "${n}"`),
  );
  expect(unknown).toEqual([]);
  expect(blocks.filter((b) => b.needs.length === 0).length).toBeGreaterThan(10);
});

/** What a command prints when it could not do what the page says (a missing file, an unknown flag, a crash). */
const BROKEN =
  /not available in the docs test|not run by the docs test|command not found|file not found|cannot start|internal error|unknown option|ENOENT|exit 2:/i;

// DOCS_PAGE=ship-safely runs that page alone (while writing it).
const only = process.env.DOCS_PAGE;
const pages = [...new Set(blocks.filter((b) => b.needs.length === 0).map((b) => b.page))].filter(
  (p) => !only || p.includes(only),
);

describe.each(pages)('%s: its commands run as printed', (page) => {
  let dir = '';
  const ports = new Map<string, string>();
  beforeAll(async () => {
    dir = workFolder();
    const named = blocks.filter((b) => b.page === page).flatMap((b) => b.code.match(/\b40\d\d\b/g) ?? []);
    for (const p of new Set(['4010', ...named])) ports.set(p, String(await freePort()));
  });
  afterAll(() => cleanUp(dir));
  const started = new Set<string>();

  it.each(blocks.filter((b) => b.page === page && b.needs.length === 0).map((b) => [b.line, b] as const))(
    'the block at line %i',
    (_line, block) => {
      if (block.with && !started.has(block.with)) {
        started.add(block.with);
        const server = run({ code: block.with }, dir, ports);
        if (server.status !== 0) throw new Error(`${block.with}: ${server.stdout}${server.stderr}`);
      }
      const result = run(block, dir, ports);
      const printed = `${result.stdout}\n${result.stderr}`;
      const where = `${block.page}:${block.line} exit ${result.status}\n${printed.slice(-3000)}`;
      if (result.status !== block.exit || BROKEN.test(printed)) throw new Error(where);
      // The output the page shows, line by line (`…` stands for lines left out).
      for (const line of (block.output ?? '').split('\n').filter((l) => l.trim() && l.trim() !== '…'))
        if (!normal(printed).includes(normal(line))) throw new Error(`not printed: ${line}\n${where}`);
    },
    70_000,
  );
});

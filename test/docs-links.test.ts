/**
 * The docs stay walkable: every relative link in README.md, CONTRIBUTING.md and docs/*.md (and the runner's
 * pointer page, the wild documents' README) leads to a file that exists, and to a heading of it when it names
 * one; every file of the repository they name in code (`mock/core/errors.ts`) exists; every `npm run <script>`
 * they name is a script of package.json; every page of docs/ opens with its task and a command.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'conformance/README.md',
  'fixtures/specs/wild/README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const scripts = Object.keys(
  (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts,
);

/** Folders the root .gitignore lists (`bench/results/`): files there are written by a run, not committed. */
const ignored = fs
  .readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .filter((line) => line.endsWith('/'));

/** A path into the repository's own folders, as the pages write them in code spans: `spec/load.ts`. */
const REPO_PATH =
  /`((?:\.ci|bench|bin|conformance|deploy|docs|examples|fixtures|mock|scripts|spec|test)\/[\w./-]*)`/g;

/** The same inside fenced code, where a command names it bare: `bash examples/ci/judge-traffic.sh`. */
const COMMAND_PATH =
  /(?<![\w/.-])((?:\.ci|bench|bin|conformance|deploy|docs|examples|fixtures|mock|scripts|spec|test)\/[\w./-]*\w)/g;

/** The fenced code blocks of a page. */
const fences = (text: string) => (text.match(/```[\s\S]*?```/g) ?? []).join('\n');

/** GitHub's anchor of a heading: lower case, punctuation out, spaces to dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The page's text outside fenced code blocks (a link there is an example, not a link). */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '');

/** The anchors of a page's headings; a repeated heading gets `-1`, `-2`… as GitHub numbers them. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of prose(fs.readFileSync(file, 'utf8')).matchAll(/^#+ (.+)$/gm)) {
    const base = slug(m[1] ?? '');
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return anchors;
}

describe.each(PAGES)('%s', (page) => {
  const file = path.join(ROOT, page);
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';

  it('exists', () => {
    expect(fs.existsSync(file)).toBe(true);
  });

  it('links only to files (and headings) that exist', () => {
    const broken: string[] = [];
    for (const m of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1] ?? '';
      if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
      const [relative = '', anchor] = target.split('#');
      const resolved =
        relative === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(relative));
      if (!fs.existsSync(resolved)) broken.push(`${target} (no such file)`);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
        broken.push(`${target} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });

  it('names only files of the repository that exist', () => {
    const named = [
      ...[...prose(text).matchAll(REPO_PATH)].map((m) => m[1] ?? ''),
      ...[...fences(text).matchAll(COMMAND_PATH)].map((m) => m[1] ?? ''),
    ];
    const missing = named.filter(
      (p) => !ignored.some((folder) => p.startsWith(folder)) && !fs.existsSync(path.join(ROOT, p)),
    );
    expect(missing).toEqual([]);
  });

  it('names only npm scripts that package.json has', () => {
    const named = [...text.matchAll(/npm (?:run ([a-z][\w:-]*)|(start|test)\b)/g)].map(
      (m) => m[1] ?? m[2] ?? '',
    );
    expect(named.filter((s) => !scripts.includes(s))).toEqual([]);
  });

  if (page.startsWith('docs/'))
    it('opens with its task and a command, before its first section', () => {
      const opening = text.split(/^##+ /m)[0] ?? '';
      expect(opening).toMatch(/^# .+\n\n\w.*\n(?:.+\n)*\n(?:<!-- .* -->\n\n)?```sh\n.+\n/);
    });
});

describe('README.md', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

  it('stays under 200 lines: one paragraph, the quick start, the install, the table of pages', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('starts a fresh clone with exactly two commands: the mock, then the tests', () => {
    const quickStart = /## Quick start\n\n(?:<!-- .* -->\n\n)?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(quickStart).toBe('npm ci && npm start\nnpm ci && npm test\n');
  });

  it('links every page of docs/ from its "I want to…" table', () => {
    const table = readme.slice(readme.indexOf('## I want to…')).split(/\n## /)[0] ?? '';
    const linked = [...table.matchAll(/\]\((docs\/[\w-]+\.md)\)/g)].map((m) => m[1]);
    const pages = PAGES.filter((p) => p.startsWith('docs/'));
    expect(pages.filter((p) => !linked.includes(p))).toEqual([]);
  });

  it('says why each library is used: every dependency of package.json has a row in "Libraries and why"', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const table = readme.slice(readme.indexOf('## Libraries and why')).split(/\n## /)[0] ?? '';
    const named = new Set([...table.matchAll(/`(@?[\w./-]+)`/g)].map((m) => m[1]));
    const deps = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']
      .flatMap((field) => Object.keys(pkg[field] ?? {}))
      .filter((name) => !name.startsWith('@types/'));
    expect(deps.filter((name) => !named.has(name))).toEqual([]);
  });
});

describe('the code', () => {
  /** Source files under a folder, tests included (a help text or a comment may name a page). */
  const sources = (dir: string): string[] =>
    fs
      .readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name))
      .map((e) => path.join(e.parentPath, e.name));

  it('names only docs pages that exist (help texts and comments point at them)', () => {
    const named = ['bin', 'bench', 'conformance', 'mock', 'scripts', 'spec']
      .flatMap(sources)
      .flatMap((file) =>
        [...fs.readFileSync(file, 'utf8').matchAll(/\bdocs\/[\w-]+\.md\b/g)].map((m) => m[0]),
      );
    expect(named.length).toBeGreaterThan(0);
    expect([...new Set(named)].filter((page) => !fs.existsSync(path.join(ROOT, page)))).toEqual([]);
  });
});

describe('docs/contributing.md', () => {
  it('lists every script of package.json in its Scripts table', () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs', 'contributing.md'), 'utf8');
    const table = page.slice(page.indexOf('## Scripts')).split(/\n## /)[0] ?? '';
    // `npm run x`, `npm test`, or a script named on its own (`prepack`, which `npm pack` runs).
    const named = new Set([...table.matchAll(/`(?:npm (?:run )?)?([a-z][\w:-]*)/g)].map((m) => m[1]));
    expect(scripts.filter((s) => !named.has(s))).toEqual([]);
  });
});

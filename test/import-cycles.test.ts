/**
 * No import circles among the source files, type-only imports included: a type both sides need lives in the
 * module both depend on (issue 25). The graph comes from a regex over `import … from` and `export … from`.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const FOLDERS = ['mock', 'conformance', 'proxy', 'spec', 'bench', 'scripts'];
const WINGS = ['mock', 'conformance', 'proxy'];
const SPECIFIER = /^\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/gm;
const SIDE_EFFECT = /^\s*import\s+['"](\.[^'"]+)['"]/gm;
const INLINE_TYPE = /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'test' ? [] : sourceFiles(full);
    return /\.ts$/.test(e.name) && !/\.(test|d)\.ts$/.test(e.name) ? [full] : [];
  });
}

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
}

/** Each file's local imports (relative to the repository). */
export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const specs = [SPECIFIER, SIDE_EFFECT, INLINE_TYPE]
      .flatMap((re) => [...text.matchAll(re)])
      .map((m) => m[1] as string);
    const targets = specs.map((s) => resolve(file, s)).filter((t): t is string => t !== undefined);
    graph.set(path.relative(ROOT, file), [...new Set(targets.map((t) => path.relative(ROOT, t)))]);
  }
  return graph;
}

/** Imports that leave a wing for another wing, or leave spec/ for any wing (`from -> to`). */
export function crossings(graph: Map<string, string[]>): string[] {
  const top = (file: string) => file.split(path.sep)[0] ?? '';
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const mine = top(from);
    if (mine !== 'spec' && !WINGS.includes(mine)) continue;
    for (const to of targets) if (WINGS.includes(top(to)) && top(to) !== mine) out.push(`${from} -> ${to}`);
  }
  return out;
}

/** Every circle the depth-first search meets, each as the files in order (first repeated last). */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** conformance/floors.json: the floors of conformance/, bottom first (eslint.config.mjs reads it too). */
const FLOORS = JSON.parse(fs.readFileSync(path.join(ROOT, 'conformance', 'floors.json'), 'utf8')) as {
  rootFloor: string[];
  floors: string[];
  top: string[];
};

/** A file's floor in conformance/: -1 the root's floor files, then the folders in order, the rest the top. */
function floorOf(file: string): number {
  const [, first = '', second] = file.split(path.sep);
  if (second === undefined)
    return FLOORS.rootFloor.includes(first.replace(/\.ts$/, '')) ? -1 : FLOORS.floors.length;
  const at = FLOORS.floors.indexOf(first);
  return at === -1 ? FLOORS.floors.length : at;
}

/** Imports inside conformance/ that point up a floor (`from -> to`); a floor's own files may import each other. */
export function upward(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph)
    for (const to of targets)
      if (to.startsWith(`conformance${path.sep}`) && floorOf(to) > floorOf(from))
        out.push(`${from} -> ${to}`);
  return out;
}

describe('imports', () => {
  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(findCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('finds an import from one wing into another, and from spec/ into a wing', () => {
    const graph = new Map([
      ['proxy/a.ts', ['spec/b.ts', 'mock/c.ts']],
      ['spec/b.ts', ['conformance/d.ts']],
      ['conformance/d.ts', ['spec/b.ts', 'conformance/e.ts']],
    ]);
    expect(crossings(graph)).toEqual(['proxy/a.ts -> mock/c.ts', 'spec/b.ts -> conformance/d.ts']);
  });

  it('keep mock/, conformance/ and proxy/ side by side on spec/: none imports another, spec/ none of them', () => {
    const files = ['spec', ...WINGS].flatMap((f) => sourceFiles(path.join(ROOT, f)));
    const graph = importGraph(files);
    expect(graph.size).toBeGreaterThan(100);
    expect(crossings(graph)).toEqual([]);
  });

  it('find an import up a floor of conformance/', () => {
    const graph = new Map([
      ['conformance/send/client.ts', ['conformance/types.ts', 'conformance/generate/values.ts']],
      [
        'conformance/generate/values.ts',
        ['conformance/build/requests.ts', 'conformance/generate/json-patch.ts'],
      ],
      ['conformance/types.ts', ['conformance/run.ts']],
      ['conformance/fuzz/index.ts', ['conformance/parity/align.ts']],
    ]);
    expect(upward(graph)).toEqual([
      'conformance/generate/values.ts -> conformance/build/requests.ts',
      'conformance/types.ts -> conformance/run.ts',
      'conformance/fuzz/index.ts -> conformance/parity/align.ts',
    ]);
  });

  it('keep the floors of conformance/ one way: each folder imports only those under it (dynamic imports too)', () => {
    const graph = importGraph(sourceFiles(path.join(ROOT, 'conformance')));
    expect(graph.size).toBeGreaterThan(80);
    expect(upward(graph)).toEqual([]);
    // Every folder of conformance/ (but its suites and data) has its place in the order.
    const placed = [...FLOORS.floors, ...FLOORS.top];
    const folders = fs.readdirSync(path.join(ROOT, 'conformance'), { withFileTypes: true });
    const unplaced = folders.filter((d) => d.isDirectory() && !['test', 'scenarios'].includes(d.name));
    expect(unplaced.map((d) => d.name).filter((n) => !placed.includes(n))).toEqual([]);
  });

  it('form no circle under mock/, conformance/, proxy/, spec/, bench/ or scripts/ (type-only imports included)', () => {
    const files = FOLDERS.flatMap((f) => sourceFiles(path.join(ROOT, f)));
    const graph = importGraph(files);
    expect(graph.size).toBeGreaterThan(100);
    expect(findCycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { RULES } from '../rules';

const ROOT = path.join(__dirname, '..', '..');
const ROW = /^\| `([a-z0-9.-]+)` +\| (contract|assumption)(?: \(quota\))? +\| (§\d) +\|/gm;
const rowsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(ROW)].map((m) => [m[1], m[2], m[3]] as const);
const catalogue = RULES.map((r) => [r.id, r.kind, r.source] as const);
const pages = [
  path.join(ROOT, 'README.md'),
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .flatMap((f) => (f.endsWith('.md') ? [path.join(ROOT, 'docs', f)] : [])),
];

describe('the runner documentation', () => {
  it('docs/check-a-server.md lists every rule with its kind and source, and no other', () => {
    expect(rowsOf(path.join(ROOT, 'docs', 'check-a-server.md'))).toEqual(catalogue);
  });

  it('README.md and docs/ list only rules of the catalogue, each with its kind and source', () => {
    const rows = pages.flatMap(rowsOf);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(catalogue).toContainEqual(row);
  });
});

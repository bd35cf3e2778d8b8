import fs from 'node:fs';
import path from 'node:path';
import { RULES } from '../rules';

const ROW = /^\| `([a-z0-9.-]+)` +\| (contract|assumption)(?: \(quota\))? +\| (§\d) +\|/gm;
const rowsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(ROW)].map((m) => [m[1], m[2], m[3]] as const);
const DOCS = path.join(__dirname, '..', '..', 'docs');
const catalogue = RULES.map((r) => [r.id, r.kind, r.source] as const);

describe('the runner documentation', () => {
  it('docs/check-a-server.md lists every rule with its kind and source, and no other', () => {
    expect(rowsOf(path.join(DOCS, 'check-a-server.md'))).toEqual(catalogue);
  });

  it('no other page lists a rule that is not in the catalogue, or with another kind or source', () => {
    const pages = [
      path.join(DOCS, '..', 'README.md'),
      ...fs.readdirSync(DOCS).map((f) => path.join(DOCS, f)),
    ];
    for (const page of pages.filter((p) => p.endsWith('.md')))
      for (const row of rowsOf(page)) expect(catalogue).toContainEqual(row);
  });
});

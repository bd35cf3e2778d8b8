import fs from 'node:fs';
import path from 'node:path';
import { RULES } from '../rules';

const ROW = /^\| `([a-z0-9.-]+)` +\| (contract|assumption)(?: \(quota\))? +\| (§\d) +\|/gm;
const rowsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(ROW)].map((m) => [m[1], m[2], m[3]] as const);
const catalogue = RULES.map((r) => [r.id, r.kind, r.source] as const);

describe('the runner documentation', () => {
  it('conformance/README.md lists every rule with its kind and source, and no other', () => {
    expect(rowsOf(path.join(__dirname, '..', 'README.md'))).toEqual(catalogue);
  });

  it('README.md lists only rules of the catalogue, each with its kind and source', () => {
    const rows = rowsOf(path.join(__dirname, '..', '..', 'README.md'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(catalogue).toContainEqual(row);
  });
});

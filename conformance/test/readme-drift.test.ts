import fs from 'node:fs';
import path from 'node:path';
import { RULES } from '../rules';

describe('README.md conformance section', () => {
  it('lists every rule with its kind and source, and no other', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    const rows = [
      ...text.matchAll(/^\| `([a-z0-9.-]+)` +\| (contract|assumption)(?: \(quota\))? +\| (§\d) +\|/gm),
    ];
    expect(rows.map((m) => [m[1], m[2], m[3]])).toEqual(RULES.map((r) => [r.id, r.kind, r.source]));
  });
});

/** Stages never import each other (STYLE.md): what two stages share lives in a core helper file. */
import fs from 'node:fs';
import path from 'node:path';

const stages = fs.readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

it.each(stages)('%s imports no other stage', (file) => {
  const text = fs.readFileSync(path.join(__dirname, file), 'utf8');
  const siblings = [...text.matchAll(/from '\.\/([^']+)'/g)].map((m) => m[1]);
  expect(siblings).toEqual([]);
});

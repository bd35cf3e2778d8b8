// Fails when spec/generated/openapi.d.ts is not what `npm run gen:types` makes from spec/openapi.yaml.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const committed = path.join(root, 'spec', 'generated', 'openapi.d.ts');
const fresh = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gen-')), 'openapi.d.ts');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
execFileSync(bin('openapi-typescript'), [path.join(root, 'spec', 'openapi.yaml'), '-o', fresh], {
  stdio: 'ignore',
});
if (!fs.existsSync(committed) || fs.readFileSync(committed, 'utf8') !== fs.readFileSync(fresh, 'utf8')) {
  console.error('spec/generated/openapi.d.ts is stale: run `npm run gen:types` and commit the result.');
  process.exit(1);
}
console.log('spec/generated/openapi.d.ts is up to date with spec/openapi.yaml');

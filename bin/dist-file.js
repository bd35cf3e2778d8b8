// Where the bin scripts find the compiled code: dist/ next to this folder. An installed package ships dist/
// (built on `prepack`); in a clone it is built first when missing or older than the sources.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

function distFile(relative) {
  const builder = path.join(ROOT, 'scripts', 'lib', 'build.js');
  if (fs.existsSync(builder) && !require(builder).ensureBuilt()) {
    process.stderr.write('the build failed; fix the errors above\n');
    process.exit(2);
  }
  const file = path.join(ROOT, 'dist', relative);
  if (!fs.existsSync(file)) {
    process.stderr.write(`${file} is missing: this package was packed without its build (npm run build)\n`);
    process.exit(2);
  }
  return file;
}

module.exports = { distFile };

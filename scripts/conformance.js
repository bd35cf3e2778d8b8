#!/usr/bin/env node
// `npm run conformance -- [options]`: build only when sources changed, then run the conformance CLI in this
// process with the given options; its exit code is this process's.
const path = require('node:path');
const { ROOT, ensureBuilt } = require('./lib/build');
const { withLegacyNames } = require('../bin/legacy-env');

if (!ensureBuilt()) {
  process.stderr.write('conformance: the build failed; fix the errors above\n');
  process.exit(2);
}
const { main, exitWhenFlushed } = require(path.join(ROOT, 'dist', 'conformance', 'cli.js'));
main(process.argv.slice(2), withLegacyNames(process.env)).then(
  (code) => exitWhenFlushed(code),
  (err) => {
    process.stderr.write(`conformance: internal error: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exit(2);
  },
);

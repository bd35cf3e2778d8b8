#!/usr/bin/env node
// `npm run conformance -- [options]`: build only when sources changed, then run the conformance CLI in this
// process with the given options; its exit code is this process's.
const path = require('node:path');
const { ROOT, ensureBuilt } = require('./lib/build');
const { withLegacyNames } = require('../bin/legacy-env');
const { runConformanceCommand } = require('../bin/commands');

if (!ensureBuilt()) {
  process.stderr.write('conformance: the build failed; fix the errors above\n');
  process.exit(2);
}
const dist = (relative) => path.join(ROOT, 'dist', relative);
runConformanceCommand(process.argv.slice(2), withLegacyNames(process.env), dist, 'conformance');

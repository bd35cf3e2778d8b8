#!/usr/bin/env node
// `npm start -- [mock options]`: build only when sources are newer than the build (issue 14), then run the
// mock in this same process (no child: Ctrl-C and SIGTERM reach the mock directly, once, and the start
// pays for one Node process, not two). dist/mock/node/main.js (or dist/proxy/main.js for `--proxy`) reads
// process.argv.slice(2), which here is exactly the options given after `--`.
const path = require('node:path');
const { ROOT, ensureBuilt } = require('./lib/build');

if (!ensureBuilt()) {
  process.stderr.write('start: the build failed; fix the errors above (the mock was not started)\n');
  process.exit(2);
}
require('../bin/legacy-env').withLegacyNames(process.env);
require('../bin/commands').startMockCommand(process.argv.slice(2), (relative) =>
  path.join(ROOT, 'dist', relative),
);

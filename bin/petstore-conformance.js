#!/usr/bin/env node
// `petstore-conformance --target URL [options]`: the conformance runner from the installed package (or a
// clone). The spec and scenarios default to the copies inside the package. Exit 0, 1 (a rule failed) or 2.
'use strict';
const { distFile } = require('./dist-file');
const { withLegacyNames } = require('./legacy-env');

const { main, exitWhenFlushed } = require(distFile('conformance/cli.js'));
main(process.argv.slice(2), withLegacyNames(process.env)).then(
  (code) => exitWhenFlushed(code),
  (err) => {
    process.stderr.write(
      `petstore-conformance: internal error: ${err && err.stack ? err.stack : String(err)}\n`,
    );
    process.exit(2);
  },
);

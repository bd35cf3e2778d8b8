#!/usr/bin/env node
// `petstore-conformance --target URL [options]`: the conformance runner from the installed package (or a
// clone); `--judge-har FILE` judges recorded traffic. The spec and scenarios default to the copies inside the
// package. Exit 0, 1 (a rule failed) or 2.
'use strict';
const { distFile } = require('./dist-file');
const { withLegacyNames } = require('./legacy-env');
const { runConformanceCommand } = require('./commands');

runConformanceCommand(process.argv.slice(2), withLegacyNames(process.env), distFile, 'petstore-conformance');

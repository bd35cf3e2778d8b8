#!/usr/bin/env node
// `petstore-mock [options]`: the mock server from the installed package (or a clone); `--proxy URL` starts the
// validation proxy instead. The spec, keys and seed default to the copies inside the package, wherever the
// command is run from. `--help`, `--version`.
'use strict';
const { distFile } = require('./dist-file');
const { withLegacyNames } = require('./legacy-env');
const { startMockCommand } = require('./commands');

withLegacyNames(process.env);
startMockCommand(process.argv.slice(2), distFile);

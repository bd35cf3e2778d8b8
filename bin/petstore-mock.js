#!/usr/bin/env node
// `petstore-mock [options]`: the mock server from the installed package (or a clone). The spec, keys and seed
// default to the copies inside the package, wherever the command is run from. `--help`, `--version`.
'use strict';
const { distFile } = require('./dist-file');
const { withLegacyNames } = require('./legacy-env');

withLegacyNames(process.env);
require(distFile('mock/node/main.js'));

#!/usr/bin/env node
// `npm run build`: tsc -p tsconfig.build.json, then the stamp that `npm start` compares sources with.
// --if-stale: only when a source or tsconfig changed since the last successful build.
const { build, ensureBuilt } = require('./lib/build');

const ok = process.argv.includes('--if-stale') ? ensureBuilt() : build();
process.exit(ok ? 0 : 1);

#!/usr/bin/env node
// `npm pack` / `npm publish` run this first: a clean build, so the tarball's dist/ holds exactly what the
// sources compile to today (no file left over from a source that was renamed or deleted).
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, build } = require('./lib/build');

fs.rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
process.exit(build() ? 0 : 1);

#!/usr/bin/env node
// `npm run example:msw -- --port N`: build examples/msw-browser when needed, then serve it as plain static files on
// http://127.0.0.1:N/ (default 4020). No mock process: the page's service worker answers /v1/* from the engine.
const { buildExample, serveStatic } = require('./lib/example-msw');

const USAGE = 'usage: npm run example:msw -- [--port N] [--rebuild]';

function parse(argv) {
  const out = { port: 4020, rebuild: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.split(/=(.*)/s);
    if (name === '--port') {
      const value = inline ?? argv[++i];
      if (!/^\d+$/.test(value ?? '') || Number(value) > 65535)
        throw new Error(`--port needs 0-65535, got ${value}`);
      out.port = Number(value);
    } else if (arg === '--rebuild') out.rebuild = true;
    else if (arg === '--help' || arg === '-h') out.help = true;
    else throw new Error(`unknown option ${arg}`);
  }
  return out;
}

async function main() {
  let opts;
  try {
    opts = parse(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`example:msw: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { built, bytes, gzipBytes } = await buildExample({
    force: opts.rebuild,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(
    `example:msw: bundle app.js ${(bytes / 1024).toFixed(1)} KiB, ${(gzipBytes / 1024).toFixed(1)} KiB gzipped` +
      `${built ? '' : ' (up to date)'}\n`,
  );
  const server = await serveStatic({ port: opts.port });
  const { port } = server.address();
  process.stdout.write(
    `example:msw: serving examples/msw-browser at http://127.0.0.1:${port}/ (Ctrl-C stops)\n`,
  );
  const stop = () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // npm runs this under `sh -c`, which dies on SIGTERM without passing it on: stop when the parent is gone, so that
  // stopping npm never leaves this server behind (the mock does the same).
  const parent = process.ppid;
  require('node:timers')
    .setInterval(() => process.ppid !== parent && stop(), 500)
    .unref();
  return null;
}

main().then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (error) => {
    process.stderr.write(`example:msw: ${error.message}\n`);
    process.exit(1);
  },
);

#!/usr/bin/env node
// `npm run judge -- [--spec FILE]...`: a third-party judge of the mock. For each document (default: every
// document in fixtures/specs/wild/ and spec/openapi.yaml) it starts the mock on a free port of 127.0.0.1, starts
// Stoplight Prism's validation proxy in front of it (`prism proxy FILE UPSTREAM --errors`), sends the generic
// walk's calls (conformance/lifecycle/document-walk.ts: every operation with a valid key, creates read back, listed, changed and
// deleted) through the proxy, and prints every violation Prism reports (its `sl-violations` header, or an answer
// Prism made itself instead of forwarding). Exit 0: Prism found nothing; 1: violations; 2: the judge could not run.
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { setTimeout, clearTimeout } = require('node:timers');
const { URL } = require('node:url');
const { ROOT, ensureBuilt } = require('./lib/build');

const USAGE = 'usage: npm run judge -- [--spec FILE]... [--verbose]';
const START_TIMEOUT_MS = 60_000;

function parseArgs(argv) {
  const specs = [];
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--spec' && argv[i + 1]) specs.push(path.resolve(argv[++i]));
    else if (arg.startsWith('--spec=')) specs.push(path.resolve(arg.slice('--spec='.length)));
    else if (arg === '--verbose') verbose = true;
    else if (arg === '--help') return { help: true };
    else return { error: `unknown option ${arg}` };
  }
  if (specs.length === 0) {
    const wild = path.join(ROOT, 'fixtures', 'specs', 'wild');
    for (const f of fs.readdirSync(wild).sort())
      if (/\.(ya?ml|json)$/.test(f)) specs.push(path.join(wild, f));
    specs.push(path.join(ROOT, 'spec', 'openapi.yaml'));
  }
  return { specs, verbose };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Start `prism proxy`; resolves once it listens, with the child and the lines it logged. */
async function startPrism(spec, upstream) {
  const port = await freePort();
  const cli = require.resolve('@stoplight/prism-cli/dist/index.js', { paths: [ROOT] });
  const child = spawn(
    process.execPath,
    [cli, 'proxy', spec, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines = [];
  const collect = (chunk) => {
    for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(line);
    if (lines.length > 5000) lines.splice(0, lines.length - 5000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`prism did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const check = () => {
      if (lines.some((l) => /Prism is listening/.test(l))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited with ${code}: ${lines.slice(-5).join(' | ')}`));
    });
  });
  child.removeAllListeners('exit');
  return { child, port, lines };
}

/** What Prism said about one step: its violations header, or an answer it made itself. */
function violationsOf(step) {
  const found = [];
  const header = step.responseHeaders['sl-violations'];
  if (header) {
    try {
      for (const v of JSON.parse(header))
        found.push(`${v.severity ?? ''} ${(v.location ?? []).join('.')} ${v.message ?? ''}`.trim());
    } catch {
      found.push(header);
    }
  }
  if (/stoplight\.io\/prism\/errors#/.test(step.responseText))
    found.push(`Prism answered itself (${step.status}): ${step.responseText.slice(0, 300)}`);
  return found;
}

/** Judge one document; returns the number of violations. */
async function judge(file, verbose, lib) {
  const { loadSpec, inferResources, createMockServer, walkDocument } = lib;
  const loaded = await loadSpec(file);
  if (!loaded.ok) throw new Error(loaded.error);
  const spec = loaded.spec;
  const inferred = inferResources(spec);
  if (!inferred.ok) throw new Error(inferred.error);
  const key = `judge-${crypto.randomBytes(12).toString('hex')}`;
  const mock = await createMockServer({
    specPath: file,
    keys: [{ key, plan: 'pro' }],
    seedFile: null,
    quiet: true,
  });
  const upstream = await mock.listen(0, '127.0.0.1');
  let prism;
  try {
    prism = await startPrism(file, upstream);
    // Prism routes by the document's paths (the servers' base path is its upstream's business).
    const walk = await walkDocument({
      spec,
      model: inferred.model,
      baseUrl: `http://127.0.0.1:${prism.port}`,
      key,
      // Without credentials Prism answers itself (its own 401) and forwards nothing: no call of the mock to judge.
      anonymous: false,
    });
    const name = path.relative(process.cwd(), file);
    let count = 0;
    for (const step of walk.steps) {
      const found = [...violationsOf(step), ...step.problems.map((p) => `walk: ${p}`)];
      if (verbose || found.length)
        process.stdout.write(
          `  ${found.length ? '✗' : '✓'} ${step.label}: ${step.method} ${new URL(step.url).pathname} -> ${step.status}\n`,
        );
      for (const f of found) process.stdout.write(`      ${f}\n`);
      count += found.length;
    }
    const logged = prism.lines.filter((l) => /Violation:/.test(l));
    for (const l of logged)
      process.stdout.write(`      prism log: ${l.replace(/^.*?Violation:/, 'Violation:')}\n`);
    count += logged.length;
    process.stdout.write(
      `${count === 0 ? 'ok  ' : 'FAIL'} ${name}: ${walk.steps.length} calls through prism proxy --errors, ${count} violation(s)\n`,
    );
    return count;
  } finally {
    if (prism) {
      const exited = new Promise((resolve) => prism.child.once('exit', resolve));
      prism.child.kill('SIGTERM');
      await exited;
    }
    await mock.close();
  }
}

async function main(argv) {
  const args = parseArgs(argv);
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.error) {
    process.stderr.write(`judge: ${args.error}\n${USAGE}\n`);
    return 2;
  }
  if (!ensureBuilt()) {
    process.stderr.write('judge: the build failed; fix the errors above\n');
    return 2;
  }
  const dist = (p) => require(path.join(ROOT, 'dist', p));
  const lib = {
    ...dist('spec/load.js'),
    ...dist('spec/resources.js'),
    ...dist('mock/node/index.js'),
    ...dist('conformance/lifecycle/document-walk.js'),
  };
  let total = 0;
  for (const file of args.specs) {
    // Prism 5 reads OpenAPI 2.0, 3.0 and 3.1: a 3.2 document (QUERY, additionalOperations) has no judge here.
    if (/^\s*["']?openapi["']?\s*:\s*["']?3\.2\./m.test(fs.readFileSync(file, 'utf8'))) {
      process.stdout.write(
        `skip ${path.relative(process.cwd(), file)}: Prism reads OpenAPI up to 3.1, not 3.2\n`,
      );
      continue;
    }
    try {
      total += await judge(file, args.verbose, lib);
    } catch (err) {
      process.stderr.write(`judge: ${path.relative(process.cwd(), file)}: ${err.message}\n`);
      return 2;
    }
  }
  process.stdout.write(
    total === 0 ? 'Prism reports no violation.\n' : `Prism reports ${total} violation(s).\n`,
  );
  return total === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`judge: internal error: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exit(2);
  },
);

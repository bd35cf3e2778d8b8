#!/usr/bin/env node
// `npm run cluster -- --processes N --base-port P [--balancer nginx --port F] [mock options...]`: N mock
// processes on consecutive ports sharing one Redis (issue 6), optionally behind Debian's nginx (issue 15,
// deploy/nginx.conf.template), to see a shared deployment work on one machine. Uses REDIS_URL when given,
// else starts a throwaway redis-server on a free 127.0.0.1 port. Ctrl-C stops everything it started.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { URL } = require('node:url');
const { setTimeout, clearTimeout } = require('node:timers');
const { ensureBuilt } = require('./lib/build');
const { startNginx } = require('./lib/nginx');

const ROOT = path.resolve(__dirname, '..');
const USAGE = `Usage: npm run cluster -- [--processes N] [--base-port P] [--balancer nginx] [--port F] [--no-build]
                            [mock options...]
  --processes N      mock processes to start (default 3)
  --base-port P      port of the first; the others follow (default 4010; 0: any free ports)
  --balancer nginx   Debian's nginx in front of them (deploy/nginx.conf.template), round robin; the mocks
                     get --trust-proxy 127.0.0.1 so per-address limits see each client, not nginx
  --port F           the balancer's port (default 4000; 0: a free port)
  --no-build         use dist/ as it is (default: build first when a source is newer than the build)
  Other options (--keys FILE, --seed FILE|none, --quiet...) go to every mock process.
  Redis: REDIS_URL when set, else a redis-server of its own (127.0.0.1, free port, data in a temp dir).
`;

function parseArgs(argv) {
  const options = { processes: 3, basePort: 4010, balancer: null, port: 4000, build: true, forward: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else if (arg === '--processes' || arg === '--base-port' || arg === '--port') {
      const value = Number(argv[++i]);
      const min = arg === '--processes' ? 1 : 0;
      if (!Number.isInteger(value) || value < min || value > 65535)
        fail(`${arg} needs an integer from ${min}`);
      if (arg === '--processes') options.processes = value;
      else if (arg === '--port') options.port = value;
      else options.basePort = value;
    } else if (arg === '--balancer') {
      options.balancer = argv[++i];
      if (options.balancer !== 'nginx') fail('--balancer takes nginx (the only balancer it can start)');
    } else if (arg === '--no-build') options.build = false;
    else options.forward.push(arg);
  }
  if (options.basePort + options.processes - 1 > 65535)
    fail('--base-port + --processes goes past port 65535');
  return options;
}

function fail(message) {
  process.stderr.write(`cluster: ${message}\n`);
  process.exit(2);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Start `command`; resolve with the child and the first match of `pattern` in its stdout. */
function startAndWait(command, args, pattern, label, timeoutMs, track) {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  track.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    let found = false;
    const timer = setTimeout(
      () => reject(new Error(`${label}: not ready in ${timeoutMs} ms\n${output}`)),
      timeoutMs,
    );
    child.once('exit', (code) => {
      if (!found) reject(new Error(`${label} exited (${code}) while starting:\n${output}`));
    });
    child.stderr.on('data', (chunk) => process.stderr.write(prefix(label, chunk)));
    child.stdout.on('data', (chunk) => {
      if (found) return void process.stdout.write(prefix(label, chunk));
      output += chunk.toString();
      const match = pattern.exec(output);
      if (!match) return;
      found = true;
      clearTimeout(timer);
      resolve({ child, match: match[0] });
    });
  });
}

const prefix = (label, chunk) =>
  chunk
    .toString()
    .split('\n')
    .map((line) => (line ? `[${label}] ${line}` : line))
    .join('\n');

async function startRedis(started) {
  let bin;
  try {
    bin = execFileSync('which', ['redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    fail('no REDIS_URL and no redis-server on PATH (apt-get install redis-server, or set REDIS_URL)');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-cluster-redis-'));
  started.dirs.push(dir);
  const port = await freePort();
  const args = [
    '--bind',
    '127.0.0.1',
    '--port',
    String(port),
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'yes',
  ];
  await startAndWait(bin, args, /Ready to accept connections/, 'redis', 10_000, started.redis);
  return `redis://127.0.0.1:${port}`;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const started = { nginx: null, mocks: [], redis: [], dirs: [] };
  let stopping = false;
  const stopAll = async (code) => {
    if (stopping) return;
    stopping = true;
    // The balancer first, then the mocks, so none logs a Redis outage on the way out; then Redis.
    if (started.nginx) await started.nginx.stop();
    for (const group of [started.mocks, started.redis]) {
      for (const child of group) child.kill('SIGTERM');
      await Promise.all(group.map(exited));
    }
    for (const dir of started.dirs) fs.rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  };
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  if (options.build && !ensureBuilt()) fail('the build failed');
  try {
    const redisUrl = process.env.REDIS_URL || (await startRedis(started));
    // The mock's own masking (built above): a malformed URL keeps nothing before its last '@'.
    const { maskUrl } = require(path.join(ROOT, 'dist', 'spec', 'redact.js'));
    const shown = maskUrl(redisUrl);
    process.stdout.write(
      `Redis: ${shown}${process.env.REDIS_URL ? '' : ' (started here, data kept until Ctrl-C)'}\n`,
    );
    const entry = path.join(ROOT, 'dist', 'mock', 'node', 'main.js');
    const urls = await Promise.all(
      Array.from({ length: options.processes }, async (_, i) => {
        const args = [
          entry,
          '--store',
          'redis',
          '--redis-url',
          redisUrl,
          '--port',
          String(options.basePort === 0 ? 0 : options.basePort + i),
        ];
        // Behind nginx every request comes from nginx (127.0.0.1): believe its X-Forwarded-For, and only its
        // (issue 13); a client on another loopback address cannot pick its own address with the header.
        if (options.balancer && !options.forward.includes('--trust-proxy'))
          args.push('--trust-proxy', '127.0.0.1');
        const label = `mock ${i + 1}`;
        const { child, match } = await startAndWait(
          process.execPath,
          [...args, ...options.forward],
          /http:\/\/\S+\/v1/,
          label,
          60_000,
          started.mocks,
        );
        child.once('exit', (code) => {
          if (stopping) return;
          process.stderr.write(`cluster: ${label} exited (${code}); stopping everything\n`);
          void stopAll(1);
        });
        return match;
      }),
    );
    process.stdout.write(
      `\n${options.processes} mock processes share ${shown}:\n${urls.map((u) => `  ${u}`).join('\n')}\n`,
    );
    if (options.balancer === 'nginx') {
      const upstreams = urls.map((u) => new URL(u).host);
      started.nginx = await startNginx({ port: options.port, upstreams });
      started.nginx.child.once('exit', (code) => {
        if (stopping) return;
        process.stderr.write(`cluster: nginx exited (${code}); stopping everything\n`);
        void stopAll(1);
      });
      process.stdout.write(
        `Balancer: ${started.nginx.url}/v1 (nginx, round robin; config and logs in ${started.nginx.dir})\n`,
      );
    }
    process.stdout.write('Ctrl-C stops them all.\n');
  } catch (err) {
    process.stderr.write(`cluster: ${err.message}\n`);
    await stopAll(1);
  }
}

function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

void main();

// Debian's nginx in front of mock processes (issue 15): render deploy/nginx.conf.template into a temp
// folder and run `nginx -p DIR -c DIR/nginx.conf -e DIR/error.log` (daemon off) as the current user.
// Used by `npm run cluster -- --balancer nginx` and by test/cluster.test.ts.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { setTimeout, clearTimeout } = require('node:timers');
const { setTimeout: sleep } = require('node:timers/promises');

const TEMPLATE = path.resolve(__dirname, '..', '..', 'deploy', 'nginx.conf.template');
const CANDIDATES = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];

/** The nginx binary: $NGINX_BIN, Debian's /usr/sbin/nginx, or one on PATH; null when there is none. */
function findNginx() {
  if (process.env.NGINX_BIN) return process.env.NGINX_BIN;
  const onPath = (process.env.PATH || '').split(path.delimiter).map((d) => path.join(d, 'nginx'));
  return [...CANDIDATES, ...onPath].find((p) => fs.existsSync(p)) || null;
}

/** The configuration text for `listen` (host:port) in front of `upstreams` (host:port each). */
function renderNginxConfig({ prefix, listen, upstreams }) {
  // Started as root, nginx's workers would switch to `nobody` and could not write the temp folder.
  const user = process.getuid && process.getuid() === 0 ? `user ${os.userInfo().username};` : '';
  const fields = {
    PREFIX: prefix,
    USER: user,
    LISTEN: listen,
    UPSTREAMS: upstreams.map((u) => `    server ${u};`).join('\n'),
  };
  return fs.readFileSync(TEMPLATE, 'utf8').replace(/\{\{([A-Z]+)\}\}/g, (m, name) => {
    if (!(name in fields)) throw new Error(`deploy/nginx.conf.template: unknown field ${m}`);
    return fields[name];
  });
}

function accepts(port, host) {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function freePort(host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** One attempt: resolves once nginx wrote its pid file (it does so after binding) and accepts connections. */
async function startOnce({ port, host, upstreams, bin, timeoutMs }) {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-nginx-'));
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(conf, renderNginxConfig({ prefix, listen: `${host}:${port}`, upstreams }));
  const child = spawn(bin, ['-p', prefix, '-c', conf, '-e', path.join(prefix, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
  const read = (file) => {
    try {
      return fs.readFileSync(path.join(prefix, file), 'utf8');
    } catch {
      return '';
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT'); // graceful: finish the requests in flight
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(force);
    }
    fs.rmSync(prefix, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  // The pid file first: a port that answers could be another program's while nginx still retries bind().
  while (read('nginx.pid').trim() !== String(child.pid) || !(await accepts(port, host))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const why = child.exitCode !== null ? `exited with ${child.exitCode}` : `not ready in ${timeoutMs} ms`;
      const log = stderr.trim() || read('error.log').trim();
      await stop();
      const err = new Error(`nginx on ${host}:${port} ${why}${log ? `:\n${log}` : ''}`);
      err.addressInUse = /Address already in use/.test(log);
      throw err;
    }
    await sleep(20);
  }
  return { url: `http://${host}:${port}`, port, dir: prefix, child, stop };
}

/**
 * Start nginx on host:port (0: a free port, tried up to three times) in front of `upstreams`; resolves once
 * it accepts connections, with { url, port, dir, child, stop() }. stop() ends it and removes its folder.
 */
async function startNginx({ port, host = '127.0.0.1', upstreams, bin = findNginx(), timeoutMs = 10_000 }) {
  if (!bin) throw new Error('nginx not found (apt-get install nginx-light, or set NGINX_BIN)');
  for (let attempt = 1; ; attempt++) {
    const chosen = port === 0 ? await freePort(host) : port;
    try {
      return await startOnce({ port: chosen, host, upstreams, bin, timeoutMs });
    } catch (err) {
      if (port !== 0 || !err.addressInUse || attempt === 3) throw err;
    }
  }
}

module.exports = { findNginx, renderNginxConfig, startNginx };

/**
 * A throwaway redis-server for tests: 127.0.0.1, a free port, its own temp dir, append-only file synced
 * on every write (so even a SIGKILL loses nothing), no RDB snapshots. Not a test file itself.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const READY_TIMEOUT_MS = 5000;

export interface RedisTestServer {
  url: string;
  port: number;
  /** Stop the server (SIGTERM: a clean shutdown; SIGKILL: a crash). Data stays in its dir. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Start it again on the same port and dir, with what it persisted. */
  restart(): Promise<void>;
  /** Crash it and start it again with nothing persisted, as a Redis without persistence comes back empty. */
  wipe(): Promise<void>;
  /** Freeze the process (SIGSTOP): connections stay open but nothing answers. */
  pause(): void;
  /** Thaw a paused process (SIGCONT). */
  resume(): void;
  /** Kill it and remove its dir. */
  destroy(): Promise<void>;
}

/** Path of the redis-server binary, or undefined when none is installed. */
export function findRedisServer(): string | undefined {
  try {
    const path = execFileSync('which', ['redis-server'], { encoding: 'utf8' }).trim();
    return path === '' ? undefined : path;
  } catch {
    return undefined;
  }
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Start a redis-server (binary found with `which`); a few attempts in case another process takes the port. */
export async function startRedisServer(): Promise<RedisTestServer> {
  const bin = findRedisServer();
  if (!bin) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      return await manage(bin, dir, port, await launch(bin, dir, port));
    } catch (err) {
      lastError = err;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

function launch(bin: string, dir: string, port: number): Promise<ChildProcess> {
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', ''];
  args.push('--appendonly', 'yes', '--appendfsync', 'always', '--daemonize', 'no', '--logfile', '');
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // Never outlive the test process, and never keep it alive: a forgotten server must not hang jest.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  child.unref();
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`redis-server not ready in ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    const fail = (err: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    };
    child.once('exit', (code) =>
      fail(new Error(`redis-server exited (${code}) on port ${port}: ${output.slice(-500)}`)),
    );
    child.stderr?.resume();
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('Ready to accept connections')) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.once('exit', () => process.removeListener('exit', killOnExit));
      child.stdout?.removeAllListeners('data').resume();
      for (const stream of [child.stdout, child.stderr]) (stream as Socket | null)?.unref();
      resolve(child);
    });
  });
}

function manage(bin: string, dir: string, port: number, first: ChildProcess): RedisTestServer {
  let child: ChildProcess | undefined = first;
  let destroyed = false;
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGCONT'); // a paused server cannot act on SIGTERM
    running.kill(signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: async () => {
      await stop();
      const next = await launch(bin, dir, port);
      // destroy() while this restart was starting up: do not leave the new server behind.
      if (destroyed) next.kill('SIGKILL');
      else child = next;
    },
    wipe: async () => {
      await stop('SIGKILL');
      for (const f of readdirSync(dir)) rmSync(join(dir, f), { recursive: true, force: true });
      const next = await launch(bin, dir, port);
      if (destroyed) next.kill('SIGKILL');
      else child = next;
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    destroy: async () => {
      destroyed = true;
      await stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts one installed kit server (and the Redis it needs) on free ports of 127.0.0.1, waits until it answers,
 * and reads its document into a file the runner loads. `stop()` ends exactly the processes it started.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../bench/lib/proc';
import type { RealServer } from './servers';

export interface Started {
  origin: string;
  documentFile: string;
  stop(): Promise<void>;
}

/** Why the server cannot start here (a missing Debian package), or undefined. */
export function missingNeed(server: RealServer): string | undefined {
  if (server.needs !== 'redis') return undefined;
  const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return found.status === 0 ? undefined : 'needs redis-server (apt-get install -y redis-server)';
}

/** Start `server` from its installed folder `dir`; throws when it does not answer within a minute. */
export async function startServer(server: RealServer, dir: string): Promise<Started> {
  const children: ChildProcess[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', NODE_ENV: 'production' };
  if (server.needs === 'redis') {
    const redisPort = await freePort();
    const data = fs.mkdtempSync(path.join(os.tmpdir(), `kit-redis-`));
    // The service's own data set (EMB ships it as a Redis dump), read-only to its API.
    const dump = path.join(dir, 'em', 'db', 'dump.rdb');
    if (fs.existsSync(dump)) fs.copyFileSync(dump, path.join(data, 'dump.rdb'));
    const args = [
      '--port',
      String(redisPort),
      '--bind',
      '127.0.0.1',
      '--dir',
      data,
      '--save',
      '',
      '--appendonly',
      'no',
    ];
    children.push(spawn('redis-server', args, { stdio: 'ignore' }));
    await waitFor(() => portOpen(redisPort), 'redis-server');
    env.REDIS_HOST = '127.0.0.1';
    env.REDIS_PORT = String(redisPort);
  }
  const port = await freePort();
  env.PORT = String(port);
  const log = path.join(dir, 'kit-server.log');
  const out = fs.openSync(log, 'w');
  children.push(spawn(process.execPath, [server.main], { cwd: dir, env, stdio: ['ignore', out, out] }));
  fs.closeSync(out);
  const stop = async () => {
    for (const child of children.reverse()) await stopChild(child);
  };
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitFor(() => portOpen(port), `${server.name} (log: ${log})`);
    return { origin, documentFile: await documentOf(server, dir, origin), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function documentOf(server: RealServer, dir: string, origin: string): Promise<string> {
  if ('file' in server.document) return path.join(dir, server.document.file);
  let text = '';
  await waitFor(async () => {
    const res = await fetch(`${origin}${(server.document as { served: string }).served}`).catch(
      () => undefined,
    );
    text = res?.ok ? await res.text() : '';
    return text.length > 0;
  }, `${server.name}'s document`);
  const file = path.join(dir, 'kit-document.json');
  fs.writeFileSync(file, text);
  return file;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(ready: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not answer within ${timeoutMs / 1000} s`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

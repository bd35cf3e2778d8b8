/**
 * Our mock and Prism's on one public document, each its own process on 127.0.0.1 with a port the OS picked
 * (bench/lib/proc.ts). Ours is started as a new user would start it on a document not its own: the document as
 * published, a keys file, no seed, a fixed --random-seed; nothing in the document is edited. Prism's is
 * `prism mock FILE`, as bench/ starts it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startServer, type ServerProcess } from '../../bench/lib/proc';
import { MOCK_MAIN, PRISM_MAIN } from '../../bench/targets';
import type { Target } from './kit';

export const DEFAULT_KEYS = {
  key: 'kit-client-key-0123456789abcdef',
  wrongKey: 'kit-wrong-key-0123456789abcdef',
};

export interface Running {
  server: ServerProcess;
  target: Target;
  log: string;
}

/** The first server URL's path of a document (`/v1`), as ours serves it by default; `` when none. */
export function serverPath(file: string): string {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { servers?: { url?: string }[] };
  const url = doc.servers?.[0]?.url ?? '';
  const p = url.startsWith('/') ? url : url.replace(/^[a-z]+:\/\/[^/]*/i, '');
  return p.replace(/\/+$/, '');
}

/** Start ours on `file` with a keys file holding `key`. */
export async function startOurs(file: string, keys = DEFAULT_KEYS): Promise<Running> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-clients-'));
  const keysFile = path.join(dir, 'keys.json');
  const entry = { key: keys.key, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 };
  fs.writeFileSync(keysFile, JSON.stringify({ keys: [entry] }));
  const log = path.join(dir, 'ours.log');
  const port = await freePort();
  const args = [MOCK_MAIN, '--port', String(port), '--spec', file, '--keys', keysFile, '--seed', 'none'];
  args.push('--ban-threshold', '0', '--rate-limit', 'off', '--random-seed', '1', '--allow-short-keys');
  const server = await startServer({
    name: `ours ${path.basename(file)}`,
    args,
    port,
    probePath: '/',
    logFile: log,
  });
  const origin = `http://127.0.0.1:${port}`;
  return { server, log, target: { server: 'ours', origin, base: origin + serverPath(file), ...keys } };
}

/** Start Prism's mock on `file` (it serves the document's paths from `/`). */
export async function startPrism(file: string, keys = DEFAULT_KEYS): Promise<Running> {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kit-clients-')), 'prism.log');
  const port = await freePort();
  const args = [PRISM_MAIN, 'mock', '-h', '127.0.0.1', '-p', String(port), file];
  const server = await startServer({
    name: `prism ${path.basename(file)}`,
    args,
    port,
    probePath: '/',
    logFile: log,
    timeoutMs: 60_000,
  });
  const origin = `http://127.0.0.1:${port}`;
  return { server, log, target: { server: 'prism', origin, base: origin, ...keys } };
}

/**
 * Instructions per request of a proxy in front of the mock (issue 42), counted by callgrind: on a machine
 * shared with other work, wall-clock figures are noise, while the instructions a process executes are not.
 * The mock runs as it is; the proxy (ours, or the bare pass-through) runs under
 * `valgrind --tool=callgrind --instr-atstart=no`; after warm-up requests the count is switched on (and zeroed
 * after a few more), N sequential kept-alive `GET /v1/categories` are sent, and the count is dumped: its total divided by N is
 * what one request costs the proxy in user space (the kernel's socket work is not counted).
 * Usage: npx tsx bench/proxy-instructions.ts [--requests N] [--warmup N] [--target ours|bare|both]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startServer } from './lib/proc';
import { PROXY_MAIN, workDir } from './targets';
import { bareArgs, mockArgs, oursProxyArgs } from './proxy';
import { CATEGORIES, ENT_KEY } from './workloads';

const say = (s: string) => process.stderr.write(`${s}\n`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET through `port`, its body read; rejects on anything but a 200. */
function get(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${ENT_KEY}` };
    const req = http.get({ host: '127.0.0.1', port, path: CATEGORIES, headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (s: string) => (body += s));
      res.once('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`${res.statusCode}: ${body.slice(0, 300)}`)),
      );
    });
    req.once('error', reject);
  });
}

/** Requests refused on the way (a kept-alive connection the mock closed during a valgrind stall), retried. */
let refused = 0;

async function sequential(port: number, n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    await get(port).catch(() => {
      refused++;
      return get(port);
    });
}

/** The total `Ir` of the newest callgrind dump at `base` (files `base.N`, or `base` itself). */
function lastTotal(base: string): number {
  const dir = path.dirname(base);
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(path.basename(base)))
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  const text = fs.readFileSync(files[0] ?? base, 'utf8');
  const m = /^(?:summary|totals): (\d+)/m.exec(text);
  if (!m) throw new Error(`no total in ${files[0] ?? base}`);
  return Number(m[1]);
}

/** Instructions per request of one proxy under callgrind, in front of the mock on `mockPort`. */
async function count(name: string, args: string[], n: number, warmup: number, dir: string): Promise<number> {
  const port = await freePort();
  const out = path.join(dir, `callgrind.${name}`);
  const valgrind = ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file'];
  const withPort = args.map((a) => (a === '{port}' ? String(port) : a));
  const server = await startServer({
    name,
    command: 'valgrind',
    args: [...valgrind, `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', ...withPort],
    port,
    probePath: CATEGORIES,
    logFile: path.join(dir, `${name}.log`),
    timeoutMs: 300_000,
  });
  try {
    await sequential(port, warmup);
    execFileSync('callgrind_control', ['-i', 'on', String(server.pid)], { stdio: 'ignore' });
    // Switching the count on stalls the process for seconds (its code is instrumented anew): long enough for
    // the mock to close an idle kept-alive connection the proxy then reuses. A few requests settle it (one
    // refused is tolerated), then the count starts from zero.
    await sequential(port, 20);
    execFileSync('callgrind_control', ['-z', String(server.pid)], { stdio: 'ignore' });
    await sequential(port, n);
    execFileSync('callgrind_control', ['-d', String(server.pid)], { stdio: 'ignore' });
    return lastTotal(out) / n;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string' },
      warmup: { type: 'string' },
      target: { type: 'string' },
    },
  });
  const n = Number(values.requests ?? 2000);
  const warmup = Number(values.warmup ?? 500);
  const target = values.target ?? 'both';
  const w = workDir();
  const mockPort = await freePort();
  const mock = await startServer({
    name: 'mock',
    args: mockArgs(mockPort, w),
    port: mockPort,
    probePath: CATEGORIES,
    logFile: null,
  });
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  try {
    const rows: string[] = [];
    const upstream = `http://127.0.0.1:${mockPort}`;
    if (target !== 'bare') {
      say(`proxy-instructions: ours (${n} requests after ${warmup})…`);
      const ir = await count('ours', oursProxyArgs(PROXY_MAIN, upstream), n, warmup, w.dir);
      rows.push(
        `ours (--proxy)     ${Math.round(ir).toLocaleString('en-US')} instructions/request (load ${load()})`,
      );
      say(rows[0] ?? '');
    }
    if (target !== 'ours') {
      say(`proxy-instructions: bare pass-through (${n} requests after ${warmup})…`);
      const ir = await count('bare', bareArgs(mockPort), n, warmup, w.dir);
      rows.push(
        `bare pass-through  ${Math.round(ir).toLocaleString('en-US')} instructions/request (load ${load()})`,
      );
    }
    if (refused > 0) rows.push(`(${refused} request(s) refused during a stall and sent again)`);
    process.stdout.write(`${rows.join('\n')}\n`);
  } finally {
    await mock.stop();
    fs.rmSync(w.dir, { recursive: true, force: true });
  }
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });

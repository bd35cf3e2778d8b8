/**
 * Issue 42: SIGTERM while a large answer (an 18 MB list) is being read slowly. The answer is ended on the mock's
 * side but still being written (backpressure): the drain waits for it; only --drain-ms cuts it, and the log says
 * how many answers were cut. Idle keep-alive connections close at once; new connections are refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'petstore-mock.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let seedFile: string;
beforeAll(() => {
  // 2,000 categories of 9 KB each: a list of about 18 MB, as in the report.
  const text = 'x'.repeat(9000);
  const categories = Array.from({ length: 2000 }, (_, i) => ({ name: `c${i}`, description: text }));
  seedFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stop-writing-')), 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify({ categories }));
});

interface Mock {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

async function launch(drainMs: number): Promise<Mock> {
  const args = [BIN, '--port', '0', '--quiet', '--seed', seedFile, '--drain-ms', String(drainMs)];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const until = Date.now() + 60_000;
  let m: RegExpMatchArray | null;
  while (!(m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(out))) {
    if (Date.now() > until || child.exitCode !== null) throw new Error(`the mock did not start:\n${out}`);
    await sleep(50);
  }
  return { child, port: Number(m[1]), output: () => out, exited };
}

interface Download {
  /** Resolves once the first bytes of the body arrived. */
  started: Promise<void>;
  /** Resolves with the bytes read and the declared length, or rejects when the connection is cut. */
  done: Promise<{ read: number; declared: number; body: Buffer }>;
  /** Read the rest as fast as it comes. */
  hurry: () => void;
}

/** GET the large list, reading one chunk every `pauseMs` (`Infinity`: stop after the first chunk). */
function slowDownload(port: number, pauseMs: number): Download {
  let hurried = false;
  let wake: (() => void) | undefined;
  let onStart: () => void = () => undefined;
  const started = new Promise<void>((r) => (onStart = r));
  const done = new Promise<{ read: number; declared: number; body: Buffer }>((resolve, reject) => {
    const headers = { authorization: 'Bearer pro-demo-key' };
    const req = http.get(
      { host: '127.0.0.1', port, path: '/v1/categories', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          read += c.length;
          onStart();
          if (hurried) return;
          res.pause();
          wake = () => res.resume();
          if (Number.isFinite(pauseMs)) setTimeout(() => wake?.(), pauseMs);
        });
        res.on('end', () =>
          resolve({ read, declared: Number(res.headers['content-length']), body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
        res.on('aborted', () => reject(new Error(`cut after ${read} bytes`)));
      },
    );
    req.on('error', reject);
  });
  return {
    started,
    done,
    hurry: () => {
      hurried = true;
      wake?.();
    },
  };
}

/** A keep-alive connection that made one request and now idles: resolves when the mock closes it. */
async function idleKeepAlive(port: number): Promise<{ closed: Promise<void> }> {
  const socket = net.connect(port, '127.0.0.1');
  const closed = new Promise<void>((r) => socket.on('close', () => r()));
  socket.on('error', () => undefined);
  socket.write('GET /v1/no-such-thing HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((r) => socket.once('data', r));
  return { closed };
}

/**
 * Does the mock still take new connections on `port`? A connection counts only when the mock answers on it (its
 * rate-limit headers): on a loaded machine a freed port can be taken by another test's server, or a client can
 * connect to itself (TCP's self-connect, when nothing listens on a port in the ephemeral range).
 */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let seen = '';
    const done = (answer: boolean) => {
      clearTimeout(timer);
      s.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), 2000);
    s.on('connect', () => {
      if (s.localPort === port) return done(false);
      s.write('GET /v1/categories HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    s.on('data', (d: Buffer) => {
      seen += d.toString('latin1');
      if (/\r\nratelimit-policy:/i.test(seen)) done(true);
    });
    s.on('error', () => done(false));
    s.on('close', () => done(false));
  });
}

describe('stopping the mock while a large answer is being written', () => {
  it('a slow reader gets every byte of an 18 MB list; idle connections close at once, new ones are refused', async () => {
    const mock = await launch(10_000);
    const download = slowDownload(mock.port, 20);
    await download.started;
    // Opened now: the keep-alive timeout (5 s) must not be what closes it.
    let idle = true;
    const idleClosed = (await idleKeepAlive(mock.port)).closed.then(() => (idle = false));
    expect(idle).toBe(true);
    // The check below can see a mock that still takes connections: this one does, before the signal.
    expect(await accepts(mock.port)).toBe(true);
    mock.child.kill('SIGTERM');
    const t0 = Date.now();
    await idleClosed;
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(await accepts(mock.port)).toBe(false);
    // Still being read slowly well after the signal (the bug cut it a third of a second after it).
    await sleep(1000);
    download.hurry();
    const { read, declared, body } = await download.done;
    expect(declared).toBeGreaterThan(18_000_000);
    expect(read).toBe(declared);
    expect((JSON.parse(body.toString()) as unknown[]).length).toBe(2000);
    expect(await mock.exited).toBe(0);
    expect(mock.output()).not.toMatch(/were cut/);
  }, 90_000);

  it('an answer still being read at --drain-ms is cut, counted in the log line, and the exit is 0', async () => {
    const mock = await launch(800);
    const stalled = slowDownload(mock.port, Infinity);
    const outcome = stalled.done.then(
      () => 'answered',
      () => 'cut',
    );
    await stalled.started;
    const t0 = Date.now();
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(700);
    stalled.hurry();
    expect(await outcome).toBe('cut');
    const line =
      mock
        .output()
        .split('\n')
        .find((l) => l.includes('were cut')) ?? '';
    expect(JSON.parse(line)).toMatchObject({ level: 'warn', cut: 1 });
    expect(line).toMatch(/1 answer\(s\) still in flight after 800 ms were cut/);
  }, 90_000);
});

/** Server processes for the bench: a free port, spawn, time to first answer, RSS sampling, stop. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

export interface ServerProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  port: number;
  /** Milliseconds from spawn to the first HTTP answer (any status) on `probePath`. */
  startupMs: number;
  /** performance.now() of the bench process when the server was spawned. */
  spawnedAt: number;
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1 (the OS picks it; never a fixed number). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Resident set size now (VmRSS) and the process's peak so far (VmHWM), in bytes; null once it is gone. */
export function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
  } catch {
    return null;
  }
}

/** Reset the kernel's peak-RSS mark of a process we started (Linux: `5` > clear_refs), so VmHWM is per phase. */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Sample VmRSS every `everyMs` until stopped; returns the largest sample (bytes). */
export function sampleRss(pid: number, everyMs = 50): () => number {
  let peak = memoryOf(pid)?.rss ?? 0;
  const timer = setInterval(() => {
    const m = memoryOf(pid);
    if (m && m.rss > peak) peak = m.rss;
  }, everyMs);
  return () => {
    clearInterval(timer);
    return Math.max(peak, memoryOf(pid)?.rss ?? 0);
  };
}

/** One HTTP GET on 127.0.0.1; resolves true when any status line came back. */
function answers(port: number, path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1000, () => socket.destroy());
    socket.once('data', (d: Buffer) => {
      socket.destroy();
      resolve(d.toString('latin1').startsWith('HTTP/1.1 '));
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
    // Written, not ended: a half-closed probe would be dropped by a plain node:http server (the bench's bare
    // pass-through) whose answer comes a tick later, and the server would look as if it never started.
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
}

export interface SpawnOptions {
  name: string;
  /** What to run; node (this process's binary) unless given, e.g. `npm`. */
  command?: string;
  args: string[];
  port: number;
  probePath: string;
  /** Where stdout and stderr go: a file path (the log under test) or null to discard. */
  logFile: string | null;
  timeoutMs?: number;
  /** Extra environment variables for the child (on top of this process's). */
  env?: Record<string, string>;
}

/**
 * Start `node ...args` (or `command ...args`) and poll until it answers; startupMs counts from spawn to the
 * first answer. A command other than node runs in its own process group, which stop() signals as a whole
 * (npm runs the server as a grandchild).
 */
export async function startServer(o: SpawnOptions): Promise<ServerProcess> {
  const out = o.logFile ? fs.openSync(o.logFile, 'w') : 'ignore';
  const started = performance.now();
  const group = o.command !== undefined;
  const child = spawn(o.command ?? process.execPath, o.args, {
    stdio: ['ignore', out, out],
    detached: group,
    env: o.env ? { ...process.env, ...o.env } : process.env,
  });
  const sendSignal = (sig: NodeJS.Signals) => {
    try {
      if (group && child.pid) process.kill(-child.pid, sig);
      else child.kill(sig);
    } catch {
      // already gone
    }
  };
  if (typeof out === 'number') fs.closeSync(out);
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
  const deadline = started + (o.timeoutMs ?? 20_000);
  for (;;) {
    if (exited)
      throw new Error(`${o.name} ${exited} before answering${o.logFile ? ` (see ${o.logFile})` : ''}`);
    if (await answers(o.port, o.probePath)) break;
    if (performance.now() > deadline) {
      sendSignal('SIGKILL');
      throw new Error(`${o.name} did not answer within ${o.timeoutMs ?? 20_000} ms`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const startupMs = performance.now() - started;
  return {
    name: o.name,
    child,
    pid: child.pid ?? -1,
    port: o.port,
    startupMs,
    spawnedAt: started,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => sendSignal('SIGKILL'), 3000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        sendSignal('SIGTERM');
      }),
  };
}

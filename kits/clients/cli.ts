/** Running a CLI of the kit: its binary, arguments and environment; what it printed and how it exited. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StepFailure } from './kit';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const TIMEOUT_MS = 15_000;

/** Run `bin args` with `env` on top of a bare environment (PATH and a scratch HOME), 15 s at most. */
export function runCli(bin: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-cli-home-'));
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
  return new Promise((resolve) => {
    execFile(bin, args, { env: { ...base, ...env }, timeout: TIMEOUT_MS }, (err, stdout, stderr) => {
      fs.rmSync(home, { recursive: true, force: true });
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      // A CLI that pages after a `next` link that never ends is stopped here: say so, not "exit 1".
      const killed = err?.killed ? `\n(still running after ${TIMEOUT_MS / 1000} s: stopped)` : '';
      resolve({ code, stdout: stdout.toString(), stderr: `${stderr.toString()}${killed}`.trim() });
    });
  });
}

/** The command must exit 0: its stdout, else the step fails with the first line it printed on stderr. */
export function ok(r: CliResult): string {
  if (r.code !== 0) throw new StepFailure(`exit ${r.code}: ${firstLine(r.stderr || r.stdout)}`);
  return r.stdout;
}

/** The command must exit non-zero saying `pattern` (the CLI's own message for that error). */
export function refused(r: CliResult, pattern: RegExp, what: string): void {
  if (r.code === 0) throw new StepFailure(`expected ${what}, it exited 0: ${firstLine(r.stdout)}`);
  const text = `${r.stderr}\n${r.stdout}`;
  if (!pattern.test(text))
    throw new StepFailure(`expected ${what}, it said: ${firstLine(r.stderr || r.stdout)}`);
}

export function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** A binary on this machine, or null. */
export function installed(bin: string): boolean {
  try {
    fs.accessSync(bin, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Parse JSON a CLI printed, or fail the step saying what came instead. */
export function json<T>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new StepFailure(`not JSON: ${firstLine(text)}`);
  }
}

// Types of scripts/lib/nginx.js for the TypeScript tests.
import type { ChildProcess } from 'node:child_process';

export interface RunningNginx {
  /** http://host:port, no path. */
  url: string;
  port: number;
  dir: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function findNginx(): string | null;
export function renderNginxConfig(o: { prefix: string; listen: string; upstreams: string[] }): string;
export function startNginx(o: {
  /** 0: a free port. */
  port: number;
  host?: string;
  upstreams: string[];
  bin?: string | null;
  timeoutMs?: number;
}): Promise<RunningNginx>;

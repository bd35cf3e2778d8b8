/** Structured log lines (JSON, one per line). Callers pass labels, never keys: see Identity.label. */
import { maskSecrets } from '../../spec/redact';
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  ms: number;
  caller: string;
  /** What latency or fault was injected into the answer (issue 33). */
  injected?: string;
}

export interface Logger {
  /** false: `request` does nothing (`--quiet` without the inspector), so the adapter builds no entry for it. */
  readonly requests?: boolean;
  request(entry: RequestLogEntry): void;
  event(level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>): void;
}

/** A logger writing JSON lines to `out`; `quiet` mutes the per-request lines only. */
export function createLogger(out: { write(s: string): unknown }, quiet: boolean): Logger {
  return {
    requests: !quiet,
    request(entry) {
      // Status 0 is an injected reset: no answer was sent, and the line says so in words.
      const status = entry.status === 0 ? 'reset' : entry.status;
      if (!quiet) out.write(`${JSON.stringify({ t: new Date().toISOString(), ...entry, status })}\n`);
    },
    event(level, msg, fields) {
      // Events carry messages from libraries (a Redis error…): credentials in URLs are masked.
      out.write(`${maskSecrets(JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields }))}\n`);
    },
  };
}

export const silentLogger: Logger = { requests: false, request: () => undefined, event: () => undefined };

/** The mock's `--proxy UPSTREAM --spec FILE …`: flags, start, reports and exit code at SIGINT/SIGTERM. */
import { callbackHostsProblem } from '../spec/callback-hosts';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_SPEC_PATH, loadSpecOrThrow } from '../spec/load';
import { maskUrl } from '../spec/redact';
import { maskSecrets } from '../spec/redact';
import { createProxyServer, type ProxyServer } from './proxy-server';
import { coveragePercent, parseReportSpec, writeReports, type ReportKind } from './proxy-reports';

const OPTIONS = {
  proxy: { type: 'string' },
  spec: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string', short: 'p' },
  'proxy-mode': { type: 'string' },
  'proxy-timeout-ms': { type: 'string' },
  'proxy-preserve-host': { type: 'boolean' },
  'proxy-max-tracked': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  report: { type: 'string' },
  'fail-on-violations': { type: 'boolean' },
  'min-coverage': { type: 'string' },
  'drain-ms': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  'callbacks-relay': { type: 'string' },
  'callback-hosts': { type: 'string' },
} as const;

/** The proxy's settings, checked. */
export interface ProxyConfig {
  upstream: URL;
  specPath: string;
  host: string;
  port: number;
  mode: 'report' | 'enforce';
  timeoutMs: number;
  preserveHost: boolean;
  maxTracked: number;
  maxBodyBytes: number;
  reports: Partial<Record<ReportKind, string>>;
  failOnViolations: boolean;
  minCoverage?: number;
  /** How long a graceful stop lets requests in flight finish (`--drain-ms`, default 10 s, as the mock's). */
  drainMs: number;
  /** `--callbacks-relay URL|self`: relay and judge the upstream's callbacks (docs/judge-traffic.md#callbacks). */
  callbacksRelay?: string;
  /** `--callback-hosts`: where relayed callbacks may be forwarded (default loopback). */
  callbackHosts?: string[];
}

/** Help for the proxy's flags (printed under the mock's own by `--help`). */
export const PROXY_HELP = `Validation proxy (docs/judge-traffic.md):
  --proxy URL                  forward every request under the base path to URL and judge both directions
  --proxy-mode report|enforce  report (default) never changes an answer; enforce refuses bad requests, 502s bad answers
  --proxy-timeout-ms N         upstream timeout, then 504 (default 30000)
  --proxy-preserve-host        send the client's Host upstream (default: the upstream's host)
  --proxy-max-tracked N        items the stateful rules remember (default 10000)
  --report junit=F,json=F,html=F,har=F,coverage=F   reports written at SIGINT/SIGTERM and on POST /_mock/report
  --fail-on-violations         exit 1 at stop when any response-side violation was seen
  --min-coverage PERCENT       exit 1 at stop when fewer documented (operation, status) pairs were observed
  --callbacks-relay URL|self   rewrite the callback URLs of requests to operations with callbacks to URL/_mock/relay/…
                               (URL: the proxy as the upstream reaches it; self: its listening address), judge
                               each callback that arrives there and forward it to the URL the client named
  --callback-hosts LIST        where relayed callbacks may be forwarded: loopback (default), host, host:port, comma-
                               separated; a callback URL naming another host is not rewritten (nor judged)
  --drain-ms N                 on SIGTERM/SIGINT: stop accepting, let requests in flight finish for up to N ms
                               (default 10000), write the reports, exit with the gate's code (0 held, 1 a
                               finding, 2 nothing judged); a second signal stops at once
`;

const int = (raw: string | undefined, fallback: number, name: string, min = 0): number => {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new Error(`--${name} must be an integer ≥ ${min}, got "${raw}"`);
  return Number(raw);
};

/** argv -> a checked config, or an error message. */
export function parseProxyConfig(
  argv: string[],
): { ok: true; config: ProxyConfig } | { ok: false; error: string } {
  try {
    const { values: v } = parseArgs({ args: argv, options: OPTIONS, strict: true });
    let upstream: URL;
    try {
      upstream = new URL(v.proxy ?? '');
    } catch {
      return { ok: false, error: `--proxy needs an absolute http(s) URL, got "${maskUrl(v.proxy ?? '')}"` };
    }
    if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
      return { ok: false, error: `--proxy needs an http or https URL, got ${upstream.protocol}` };
    const mode = v['proxy-mode'] ?? 'report';
    if (mode !== 'report' && mode !== 'enforce')
      return { ok: false, error: `--proxy-mode is report or enforce, got "${mode}"` };
    const reports = parseReportSpec(v.report ?? '');
    if (!reports.ok) return reports;
    const relay = v['callbacks-relay'];
    if (relay !== undefined && relay !== 'self' && !/^https?:\/\/[^/]+\/?$/i.test(relay))
      return {
        ok: false,
        error: `--callbacks-relay needs self or the proxy's origin as the upstream reaches it (http://host:port), got "${maskUrl(relay)}"`,
      };
    const callbackHosts = (v['callback-hosts'] ?? 'loopback')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const hostsProblem = callbackHostsProblem(callbackHosts);
    if (hostsProblem) return { ok: false, error: hostsProblem };
    const coverage = v['min-coverage'];
    if (coverage !== undefined && !(Number(coverage) >= 0 && Number(coverage) <= 100))
      return { ok: false, error: `--min-coverage is a percentage 0-100, got "${coverage}"` };
    return {
      ok: true,
      config: {
        upstream,
        specPath: v.spec ?? DEFAULT_SPEC_PATH,
        host: v.host ?? '127.0.0.1',
        port: int(v.port ?? process.env.PORT, 4010, 'port'),
        mode,
        timeoutMs: int(v['proxy-timeout-ms'], 30_000, 'proxy-timeout-ms', 1),
        preserveHost: v['proxy-preserve-host'] ?? false,
        maxTracked: int(v['proxy-max-tracked'], 10_000, 'proxy-max-tracked', 1),
        maxBodyBytes: int(v['max-body-bytes'], 1_048_576, 'max-body-bytes', 1),
        reports: reports.files,
        failOnViolations: v['fail-on-violations'] ?? false,
        minCoverage: coverage === undefined ? undefined : Number(coverage),
        drainMs: int(v['drain-ms'], 10_000, 'drain-ms'),
        ...(relay !== undefined ? { callbacksRelay: relay, callbackHosts } : {}),
      },
    };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** Runs the proxy until SIGINT/SIGTERM; the exit code says whether the gates held. */
export async function runProxy(argv: string[]): Promise<void> {
  // The parent as it was at start: it may be gone before the proxy listens (a stop while the document loads).
  const parent = { pid: process.ppid, name: processName(process.ppid) };
  const parsed = parseProxyConfig(argv);
  if (!parsed.ok) {
    process.stderr.write(`mock: ${maskSecrets(parsed.error)}\n(see --help)\n`);
    process.exit(2);
  }
  const c = parsed.config;
  const spec = await loadSpecOrThrow(c.specPath).catch((err: Error) => {
    process.stderr.write(`mock: cannot start: ${maskSecrets(err.message)}\n`);
    process.exit(2);
  });
  const target = maskUrl(c.upstream.href);
  const proxy = createProxyServer({
    spec,
    ...c,
    keepExchanges: c.reports.har !== undefined,
    onReport: () => writeReports(proxy.judge, target, c.reports),
  });
  const base = await proxy.listen(c.port, c.host).catch((err: Error) => {
    process.stderr.write(`mock: cannot listen on ${c.host}:${c.port}: ${err.message}\n`);
    process.exit(2);
  });
  // The handlers are in place before the start line: a caller may signal as soon as it reads it.
  stopOnSignals(proxy, c, target, parent);
  process.stdout.write(
    `${spec.document.info.title} validation proxy (${c.mode}) listening on ${base} -> ${target}\n`,
  );
  const origin = new URL(base).origin;
  process.stdout.write(`Inspector: ${origin}/_mock/inspector   API reference: ${origin}/_mock/docs\n`);
  process.stdout.write(`Violations: ${origin}/_mock/violations   Exchanges: ${origin}/_mock/exchanges\n`);
}

/**
 * The gate's exit code at stop (docs/check-a-server.md#exit-codes): 1 a finding (a response-side violation
 * under --fail-on-violations, upstream failures included; coverage under --min-coverage), 2 a gate was asked
 * for but no exchange was judged, else 0.
 */
export function gateCode(
  c: Pick<ProxyConfig, 'failOnViolations' | 'minCoverage'>,
  exchanges: number,
  violations: number,
  coverage: number,
): 0 | 1 | 2 {
  if (c.failOnViolations && violations > 0) return 1;
  const gated = c.failOnViolations || c.minCoverage !== undefined;
  if (gated && exchanges === 0) return 2;
  if (c.minCoverage !== undefined && coverage < c.minCoverage) return 1;
  return 0;
}

/**
 * A graceful stop on SIGTERM or SIGINT: no new connections, requests in flight finish for up to --drain-ms,
 * then the reports are written and the process exits with the gate's code. A second signal stops at once
 * (reports written, the same code). Under npx or npm the signal goes to npm, which passes it to the shell it
 * runs the command with: bash execs the command (the proxy gets the signal itself), sh (dash) does not and dies
 * on it, so the proxy also stops when its parent goes away, and says at start that it will.
 */
function stopOnSignals(
  proxy: ProxyServer,
  c: ProxyConfig,
  target: string,
  parent: { pid: number; name: string },
): void {
  let stopping = false;
  const finish = (why: string): never => {
    const written = writeReports(proxy.judge, target, c.reports);
    const seen = proxy.judge.responseViolations();
    const coverage = coveragePercent(proxy.judge, target);
    const exchanges = proxy.judge.snapshot().exchanges;
    const code = gateCode(c, exchanges, seen, coverage);
    process.stdout.write(
      `${why}: ${exchanges} exchanges, ${seen} response-side violations, coverage ${coverage}%${written.length ? `; wrote ${written.join(', ')}` : ''}; exit ${code}\n`,
    );
    process.exit(code);
  };
  const stop = (why: string) => {
    if (stopping) {
      process.stdout.write(`${why} again: stopping now, requests in flight are cut\n`);
      proxy.server.closeAllConnections();
      finish(why);
    }
    stopping = true;
    process.stdout.write(
      `${why}: no new connections; ${proxy.inFlight()} requests in flight may finish (up to ${c.drainMs} ms)\n`,
    );
    void proxy.drain(c.drainMs).then(() => finish(why));
  };
  process.on('SIGINT', () => stop('received SIGINT'));
  process.on('SIGTERM', () => stop('received SIGTERM'));
  if (process.env.npm_command === undefined) return;
  const { pid, name } = parent;
  const through = /^npm|node/.test(name) ? 'npm' : `${name}, run by npm`;
  if (SHELLS.has(name) && Object.keys(c.reports).length > 0)
    process.stderr.write(
      `mock: started by npm through ${name} (pid ${pid}), which does not pass a signal on: a SIGTERM to npm ` +
        `stops ${name}, and the proxy writes its reports once it sees ${name} gone, after npm returned. For ` +
        `the reports on disk when npm returns, run it with npm_config_script_shell=bash or as ` +
        `node_modules/.bin/petstore-mock (docs/judge-traffic.md#stopping-the-proxy)\n`,
    );
  // Checked often: the shell is gone within milliseconds of npm's signal, and npm exits soon after.
  const watch = setInterval(() => {
    if (!stopping && process.ppid !== pid) stop(`its parent (${through}, pid ${pid}) exited`);
  }, 20);
  watch.unref();
}

/** Shells that npm may run a command with and that do not exec it (a signal stops them, not the proxy). */
const SHELLS = new Set(['sh', 'dash', 'ash', 'busybox']);

/** The name of process `pid` (Linux /proc; elsewhere, or when unreadable, "npm"). */
function processName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() || 'npm';
  } catch {
    return 'npm';
  }
}

/** Process entry: parse the config, start the mock, print where it listens, stop cleanly on SIGINT/SIGTERM. */
import { describeWebhooks } from '../core/webhooks';
import { DEFAULT_KEYS_FILE, HELP, parseConfig } from './config';
import { createMockServer, type MockServer } from './index';
import { tryCurl } from './try-curl';
import { createLogger, type Logger } from '../core/log';
import { packageVersion } from '../../spec/paths';
import { maskSecrets } from '../../spec/redact';
import { adminOn, inspectorOn } from './routes';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // `--proxy` starts the validation proxy instead (proxy/main.ts): bin/commands.js sends it there.
  const parsed = parseConfig(argv, process.env);
  if (parsed.ok === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (parsed.ok === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  if (!parsed.ok) {
    process.stderr.write(`mock: ${maskSecrets(parsed.error)}\n(see --help)\n`);
    process.exit(2);
  }
  const config = parsed.config;
  const log = createLogger(process.stdout, config.quiet);
  let mock;
  try {
    mock = await createMockServer({ ...config, rateLimit: parsed.rateLimit, log });
  } catch (err) {
    process.stderr.write(`mock: cannot start: ${maskSecrets((err as Error).message)}\n`);
    process.exit(2);
  }
  let baseUrl: string;
  try {
    baseUrl = await mock.listen(config.port, config.host);
  } catch (err) {
    process.stderr.write(`mock: cannot listen on ${config.host}:${config.port}: ${(err as Error).message}\n`);
    process.exit(2);
  }
  // The handlers are in place before the start line: a caller may signal as soon as it reads it.
  stopOnSignals(mock, parsed.drainMs, log);
  for (const warning of mock.warnings) process.stdout.write(`warning: ${warning}\n`);
  process.stdout.write(banner(baseUrl, mock, config.keysFile === DEFAULT_KEYS_FILE, config.store));
  const origin = new URL(baseUrl).origin;
  process.stdout.write(
    `API reference: ${origin}/_mock/docs${inspectorOn(mock.deps) ? `   Inspector: ${origin}/_mock/inspector` : ''}${config.watch ? '   (watching spec, keys and seed files)' : ''}\n`,
  );
  process.stdout.write(`${adminLine(mock, config.host)}\n`);
  if (!parsed.rateLimit)
    process.stdout.write('Rate limits: off (--rate-limit off): nothing is counted, limited or banned\n');
}

/**
 * A graceful stop on SIGTERM or SIGINT: no new connections, requests in flight finish for up to `drainMs`, then
 * exit 0 (memory or Redis stores closed). A second signal stops at once (exit 130 or 143). Launched by npm or
 * npx (which may leave the mock behind when they are signalled: docs/mock-options.md#stopping), the mock also
 * stops when its parent goes away.
 */
function stopOnSignals(mock: MockServer, drainMs: number, log: Logger): void {
  let stopping = false;
  const stop = (why: string, code: number) => {
    if (stopping) {
      log.event('warn', `${why} again: stopping now, requests in flight are cut`);
      process.exit(code);
    }
    stopping = true;
    log.event('info', `${why}: no new connections; requests in flight may finish (up to ${drainMs} ms)`);
    mock.drain(drainMs).then(
      ({ drained, cut }) => {
        if (!drained)
          log.event('warn', `${cut} answer(s) still in flight after ${drainMs} ms were cut`, { cut });
        process.exit(0);
      },
      (err: unknown) => {
        process.stderr.write(`mock: stopping failed: ${maskSecrets((err as Error).message)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('received SIGINT', 130));
  process.on('SIGTERM', () => stop('received SIGTERM', 143));
  if (process.env.npm_command !== undefined) {
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (!stopping && process.ppid !== parent) stop(`its parent (npm, pid ${parent}) exited`, 143);
    }, 500);
    watch.unref();
  }
}

/** Who may use the admin routes and the inspector on this listener (never the token itself). */
function adminLine(mock: MockServer, host: string): string {
  const deps = mock.deps;
  if (!deps.config.admin && !deps.config.inspector) return 'Admin routes and inspector: off';
  if (!adminOn(deps) && !inspectorOn(deps))
    return `Admin routes and inspector: off (listening on ${host}, not a loopback address, without --admin-token)`;
  if (deps.config.adminToken !== null)
    return 'Admin routes and inspector data: need the admin token (--admin-token; not printed)';
  return 'Admin routes and inspector: this machine only (POST /_mock/reset needs the header X-Mock-Admin: 1)';
}

/** The shipped demo keys are public (fixtures/keys.json) and printed; keys from any other file never are. */
function banner(baseUrl: string, mock: MockServer, demo: boolean, store: string): string {
  const keys = mock.deps.keyring.entries();
  const spec = mock.deps.spec;
  const key = demo ? (keys[0]?.key ?? 'KEY') : 'YOUR_KEY';
  const curl = tryCurl(spec, baseUrl, key);
  const lines = [
    `${spec.document.info.title} ${spec.document.info.version} (mock) listening on ${baseUrl} (store: ${store})`,
    ...mock.inferred().map((l) => `  resource ${l}`),
    ...describeWebhooks(mock.deps).map((l) => `  webhook ${l}`),
    demo
      ? 'Demo keys (fixtures/keys.json; public and short: never use them on a shared mock):'
      : 'Keys (shown by label; the keys themselves are not printed):',
    ...keys.map((k) => `  ${k.plan.padEnd(10)} ${demo ? k.key : k.label}`),
    ...(curl ? [`Try: ${curl}`] : []),
    '',
  ];
  return lines.join('\n');
}

void main();

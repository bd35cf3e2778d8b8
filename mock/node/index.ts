/**
 * The mock as a Node library: `createMockServer(options)` loads the document, keys and seed files once, builds
 * the stores and returns a node:http server over the engine that tests can listen on and close. main.ts is a
 * thin process wrapper around this.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSpec } from '../../spec/load';
import { describeResources } from '../../spec/resources';
import {
  createApp,
  createClientErrorHandler,
  createConnectHandler,
  createExpectationHandler,
} from '../adapters/node-http';
import type { Clock } from '../core/context';
import { buildDeps, settingsWith } from '../core/engine';
import type { KeyEntry, KeysFile } from '../core/keys';
import { silentLogger, type Logger } from '../core/log';
import { buildPipeline } from '../core/pipeline';
import { applySettings, type MockConfig } from '../core/settings';
import { readSettingsFile } from './settings-file';
import type { LimiterStore, RecordStore, SeedData } from '../core/stores/types';
import { resetState } from './admin';
import { DEFAULT_KEYS_FILE, nodeDefaults } from './config';
import type { NodeDeps } from './deps';
import { createExampleEngine } from './engines';
import { loadKeysFile } from './keys-file';
import { loadSeedFile } from './seed';
import { loadSeedHar } from './seed-har-file';
import { createStores } from './stores';
import { createCallbackSender } from './callbacks';
import { clientAddressOf } from './trust-proxy';
import { loadSpecDocuments } from '../../spec/pages/documents';
import { createRecentRequests, recordingLogger } from './ui/recent';
import { isLoopback, ownRefusals, ownRoutes } from './routes';
import { createStreamState, endStreams, type StreamLimits } from './ui/events';
import { isUiPath } from './ui/stage';
import { createReloader, watchSources, type ReloadOutcome } from './watch';
import { trackConnections, type DrainOutcome } from './drain';
import { checkOptions, rule, type OptionRule } from '../../spec/check-options';
import { settingRules } from '../core/check-options';

/** createMockServer's options: every setting, the engine's inputs, and the Node server's own. */
const SERVER_OPTION_RULES = {
  ...settingRules(),
  keys: rule.keys,
  seed: rule.object,
  seedHarFiles: rule.stringList,
  clock: rule.clock,
  records: rule.object,
  limiter: rule.object,
  log: rule.object,
  watchIntervalMs: rule.number,
  inspectorStreams: rule.object,
  rateLimit: rule.boolean,
  sleep: rule.function,
} satisfies Record<string, OptionRule>;

export interface MockServerOptions extends Partial<MockConfig> {
  /** Keys (or a whole keys file, with plans) given directly instead of a keys file. */
  keys?: KeyEntry[] | KeysFile;
  /** Seed records by resource given directly instead of a seed file. */
  seed?: SeedData;
  clock?: Clock;
  records?: RecordStore;
  limiter?: LimiterStore;
  log?: Logger;
  /** How often --watch looks at the files (default 500 ms). */
  watchIntervalMs?: number;
  /** Bounds of the inspector's live streams (mock/node/ui/events.ts). */
  inspectorStreams?: Partial<StreamLimits>;
  /** `--rate-limit off` (false): nothing is counted, limited or banned; the headers still describe the plan. */
  rateLimit?: boolean;
  /** Waits `ms`: how an injected delay holds an answer back (default: a timer). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * `--rate-limit off`, for frontend work: every request admitted and nothing counted (no 429, no ban), while the
 * rate-limit headers still carry the plan's numbers (Remaining stays at the limit), as the document requires.
 */
export function unlimited(store: LimiterStore): LimiterStore {
  return {
    consume: (_subject, windows) => ({ kind: 'admitted', used: windows.map(() => 0) }),
    peek: (subject, windows, nowMs) => store.peek(subject, windows, nowMs),
    held: (nowMs, max) => store.held(nowMs, max),
    lift: (subject, nowMs) => store.lift(subject, nowMs),
    reset: () => store.reset(),
    close: () => store.close(),
  };
}

export type { DrainOutcome };

export interface MockServer {
  server: http.Server;
  /** The dependencies serving now (a --watch reload replaces them). */
  readonly deps: NodeDeps;
  /** Listen (default: a free port on 127.0.0.1); resolves to the base URL (e.g. ending in /v1). */
  listen(port?: number, host?: string): Promise<string>;
  /** Back to the seed records, with every counter and ban forgotten. */
  reset(): Promise<void>;
  /** Reload the spec, keys, seed and settings files now (what --watch does on a change); stored state is kept. */
  reload(): Promise<ReloadOutcome>;
  /** Lines saying what the mock inferred from the document (resources, actions, id fields). */
  inferred(): string[];
  /** What the loader noticed and accepted at start (an upgraded 3.0 document, unknown formats…). */
  warnings: string[];
  close(): Promise<void>;
  /**
   * A graceful stop: accept no new connection, end the inspector's streams, let the answers in flight finish
   * (one still being received, one still being written to a slow reader; idle keep-alive connections are closed
   * at once, the others as their answer ends) for up to `drainMs`, then cut whatever is left and close the
   * stores. Resolves to `{ drained: true, cut: 0 }` when everything finished within the limit.
   */
  drain(drainMs: number): Promise<DrainOutcome>;
}

/**
 * The engine's stages with the Node layer's own routes (admin, pages): served before the rate limit to whoever
 * may call them, refused after it (counted, with the rate-limit headers). See ./routes.ts.
 */
export const NODE_PIPELINE = buildPipeline<NodeDeps>({ beforeLimit: [ownRoutes], afterLimit: [ownRefusals] });

/** `config` with its settings file applied (the command line's values over it), as a reload applies it. */
function withSettingsFile(config: MockConfig): MockConfig {
  if (!config.settingsFile) return config;
  const read = readSettingsFile(config.settingsFile);
  if (!read.ok) throw new Error(read.error);
  return Object.freeze({ ...config, ...applySettings(read.settings, config.settingsFlags, config.plans) });
}

/** Build a mock server; rejects with a message naming the problem when the spec, keys or seed are bad. */
export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  checkOptions('createMockServer', options, SERVER_OPTION_RULES);
  const {
    keys,
    seed,
    clock,
    records,
    limiter,
    log,
    watchIntervalMs,
    inspectorStreams,
    rateLimit = true,
    sleep,
    ...overrides
  } = options;
  const config = withSettingsFile(settingsWith({ ...nodeDefaults(overrides.specPath), ...overrides }));
  const loaded = await loadSpec(config.specPath);
  if (!loaded.ok) throw new Error(loaded.error);
  const spec = loaded.spec;
  if (config.basePath !== null) spec.basePath = config.basePath.replace(/\/+$/, '');
  // The shipped demo keys are short and public; any other keys file must hold keys of 16 characters or more.
  const allowShortKeys = config.allowShortKeys || keys !== undefined || config.keysFile === DEFAULT_KEYS_FILE;
  const keysFile = keys ?? (await orThrow(loadKeysFile(config.keysFile, { allowShortKeys }))).file;
  const fromHar = config.seedHarFiles?.length
    ? await orThrow(loadSeedHar(config.seedHarFiles, spec))
    : undefined;
  const seedData =
    seed ??
    fromHar?.seed ??
    (config.seedFile ? (await orThrow(loadSeedFile(config.seedFile, spec))).seed : {});
  // The inspector's ring of recent requests is filled by the request logger: nothing new on the hot path.
  const recent = createRecentRequests();
  const logger = config.inspector
    ? recordingLogger(log ?? silentLogger, recent, isUiPath)
    : (log ?? silentLogger);
  const stores =
    records && limiter
      ? { records, limiter, seedIfNew: records.reset.bind(records), close: async () => undefined }
      : await createStores(config, logger);
  const callbacks = createCallbackSender(
    { hosts: config.callbackHosts, timeoutMs: config.callbackTimeoutMs },
    logger,
  );
  const base = await buildDeps({
    document: spec,
    keys: keysFile,
    seed: seedData,
    clock,
    log: logger,
    config,
    allowShortKeys: true,
    records: stores.records,
    limiter: rateLimit ? stores.limiter : unlimited(stores.limiter),
    engine: createExampleEngine(config.exampleEngine, config.specPath),
    sleep,
    outbox: callbacks.outbox,
  });
  // Memory stores start from the seed; a Redis store is seeded only when it is new (restarts lose nothing).
  await stores.seedIfNew(seedData, base.model.resources);
  // Until it listens, and on any address but loopback, admin and inspector need the admin token.
  const listener = { exposed: true };
  const deps: NodeDeps = {
    ...base,
    allowShortKeys,
    callbacks,
    ui: {
      documents: await loadSpecDocuments(config.specPath, spec.basePath),
      recent,
      current: () => holder.current,
      streams: createStreamState(inspectorStreams),
      listener,
    },
  };
  const holder = { current: deps };
  const sources = {
    specPath: config.specPath,
    keysFile: keys ? null : config.keysFile,
    seedFile: seed ? null : config.seedFile,
    settingsFile: config.settingsFile,
  };
  const reload = createReloader(holder, sources, logger);
  const stopWatching = config.watch ? watchSources(sources, reload, watchIntervalMs) : () => undefined;
  const server = http.createServer({
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    maxHeaderSize: config.maxHeaderBytes,
    // No Host header is still a request the pipeline answers (with the Error shape), not a bare Node 400.
    requireHostHeader: false,
    // Node checks the two timeouts only every connectionsCheckingInterval (30 s by default): check often
    // enough that a slow client is cut off soon after its timeout.
    connectionsCheckingInterval: Math.max(
      50,
      Math.min(1000, config.headersTimeoutMs / 2, config.requestTimeoutMs / 2),
    ),
  });
  // A client that half-closes after its request (`nc -q`, health checks, HTTP/1.0 clients) still gets the answer
  // when it comes after its FIN (a latency, a Redis store); Node would otherwise end the socket at the FIN. The
  // property is Node's own (not in its types); test/e2e/mock-half-close.test.ts fails if a version drops it.
  Object.assign(server, { httpAllowHalfOpen: true });
  const connections = trackConnections(server);
  server.on(
    'request',
    connections.counted(
      createApp(holder, { pipeline: NODE_PIPELINE, addressOf: clientAddressOf(config.trustProxy) }),
    ),
  );
  server.on('listening', () => {
    const address = server.address();
    listener.exposed = typeof address === 'string' || address === null ? false : !isLoopback(address.address);
  });
  server.on('clientError', createClientErrorHandler(holder));
  server.on('connect', createConnectHandler(holder));
  server.on('checkExpectation', createExpectationHandler(holder));
  return {
    server,
    get deps() {
      return holder.current;
    },
    listen: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          resolve(
            `http://${host.includes(':') ? `[${host}]` : host}:${address.port}${holder.current.spec.basePath}`,
          );
        });
      }),
    reset: () => resetState(holder.current),
    reload,
    inferred: () => describeResources(holder.current.model),
    warnings: [
      ...loaded.warnings,
      ...unparsedMethods(holder.current.spec.operations),
      ...(holder.current.model.notes ?? []),
      ...(fromHar?.lines ?? []),
    ],
    drain: async (drainMs) => {
      stopWatching();
      const streams = holder.current.ui?.streams;
      if (streams) endStreams(streams);
      const outcome = await connections.drain(drainMs);
      callbacks.close();
      await stores.close();
      return outcome;
    },
    close: async () => {
      stopWatching();
      callbacks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await stores.close();
    },
  };
}

async function orThrow<T extends { ok: true }>(
  result: Promise<T | { ok: false; error: string }>,
): Promise<T> {
  const r = await result;
  if (!r.ok) throw new Error(r.error);
  return r;
}

/**
 * OpenAPI 3.2's `additionalOperations` may name any method; Node's HTTP parser reads only those in
 * `http.METHODS` (QUERY, COPY, LINK, PURGE … are among them) and answers any other 400 in the error shape before
 * the mock sees it. Said once at start; the fetch and MSW entries serve every method.
 */
function unparsedMethods(operations: ReadonlyArray<{ method: string; operationId: string }>): string[] {
  const unread = operations.filter((o) => !http.METHODS.includes(o.method.toUpperCase()));
  if (unread.length === 0) return [];
  const named = unread.slice(0, 3).map((o) => `${o.method.toUpperCase()} (${o.operationId})`);
  return [
    `${named.join(', ')}${unread.length > 3 ? ', …' : ''}: Node's HTTP parser does not read this method; the ` +
      'node server answers it 400 (bad_request), the fetch and MSW entries serve it',
  ];
}

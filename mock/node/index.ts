/**
 * The mock as a library: `createMockServer(options)` loads the spec, keys and seed once, builds the stores and
 * returns a server that tests can listen on and close. main.ts is a thin process wrapper around this.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSpec } from '../../spec/load';
import type { NewCategory } from '../../spec/types';
import { createApp, createClientErrorHandler, createConnectHandler } from '../adapters/node-http';
import { configWith, type MockConfig } from './config';
import type { Clock, Deps } from '../core/context';
import { createExampleEngine } from './engines';
import { createKeyring, loadKeysFile, type KeyEntry } from '../core/keys';
import { silentLogger, type Logger } from '../core/log';
import { compilePolicy } from '../core/policy';
import { loadSeedFile } from './seed';
import { resetState } from './admin';
import { createStores } from './stores';
import type { CategoryStore, LimiterStore } from '../core/stores/types';
import { loadSpecDocuments } from './ui/documents';
import { createRecentRequests, recordingLogger } from './ui/recent';
import { isUiPath } from './ui/stage';
import { createReloader, watchSources, type ReloadOutcome } from './watch';

export interface MockServerOptions extends Partial<MockConfig> {
  /** Keys given directly instead of a keys file. */
  keys?: KeyEntry[];
  /** Seed categories given directly instead of a seed file. */
  seed?: NewCategory[];
  clock?: Clock;
  categories?: CategoryStore;
  limiter?: LimiterStore;
  log?: Logger;
  /** How often --watch looks at the files (default 500 ms). */
  watchIntervalMs?: number;
}

export interface MockServer {
  server: http.Server;
  /** The dependencies serving now (a --watch reload replaces them). */
  readonly deps: Deps;
  /** Listen (default: a free port on 127.0.0.1); resolves to the base URL ending in /v1. */
  listen(port?: number, host?: string): Promise<string>;
  /** Back to the seed categories, with every counter and ban forgotten. */
  reset(): Promise<void>;
  /** Reload the spec, keys and seed files now (what --watch does on a change); stored state is kept. */
  reload(): Promise<ReloadOutcome>;
  close(): Promise<void>;
}

const systemClock: Clock = { now: () => Date.now() };

/** Build a mock server; rejects with a message naming the problem when the spec, keys or seed are bad. */
export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { keys, seed, clock, categories, limiter, log, watchIntervalMs, ...overrides } = options;
  const config = configWith(overrides);
  const loaded = await loadSpec(config.specPath);
  if (!loaded.ok) throw new Error(loaded.error);
  const spec = loaded.spec;
  const keyEntries = keys ?? (await orThrow(loadKeysFile(config.keysFile))).keys;
  const seedEntries =
    seed ?? (config.seedFile ? (await orThrow(loadSeedFile(config.seedFile, spec))).categories : []);
  // The inspector's ring of recent requests is filled by the request logger: nothing new on the hot path.
  const recent = createRecentRequests();
  const logger = config.inspector
    ? recordingLogger(log ?? silentLogger, recent, isUiPath)
    : (log ?? silentLogger);
  const injected = categories && limiter ? { categories, limiter, close: async () => undefined } : null;
  if (injected) await injected.categories.reset(seedEntries);
  const stores = injected ?? (await createStores(config, logger, seedEntries));
  const engine = createExampleEngine(config.exampleEngine, config.specPath);
  const deps: Deps = {
    config,
    spec,
    keyring: createKeyring(keyEntries),
    categories: stores.categories,
    limiter: stores.limiter,
    engine,
    clock: clock ?? systemClock,
    seed: seedEntries,
    log: logger,
    policy: compilePolicy(config.policy),
    listCache: { current: null },
    ui: {
      documents: await loadSpecDocuments(config.specPath, spec.basePath),
      recent,
      current: () => holder.current,
    },
  };
  const holder = { current: deps };
  const sources = {
    specPath: config.specPath,
    keysFile: keys ? null : config.keysFile,
    seedFile: seed ? null : config.seedFile,
  };
  const reload = createReloader(holder, sources, logger);
  const stopWatching = config.watch ? watchSources(sources, reload, watchIntervalMs) : () => undefined;
  const server = http.createServer(
    {
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
    },
    createApp(holder),
  );
  server.on('clientError', createClientErrorHandler(holder));
  server.on('connect', createConnectHandler(holder));
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
          resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}${spec.basePath}`);
        });
      }),
    reset: () => resetState(holder.current),
    reload,
    close: async () => {
      stopWatching();
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

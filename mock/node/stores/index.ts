/** Build the stores the config asks for; only this file knows which implementations exist. */
import type { MockConfig } from '../../core/settings';
import type { Logger } from '../../core/log';
import { createMemoryRecordStore } from '../../core/stores/memory-record-store';
import { idRandom } from '../../../spec/random';
import { createMemoryLimiterStore } from '../../core/stores/memory-limiter-store';
import type { LimiterStore, RecordStore, SeedData, StoreResource } from '../../core/stores/types';

export interface Stores {
  records: RecordStore;
  limiter: LimiterStore;
  /** Store the seed: always into memory; into Redis only when it is new, so restarting a process loses nothing. */
  seedIfNew(seed: SeedData, resources: readonly StoreResource[]): Promise<unknown>;
  close(): Promise<void>;
}

/** A store by its `--store` name: one entry per implementation (a new store is one line here and its file). */
const STORES: Readonly<Record<string, (config: MockConfig, log: Logger) => Promise<Stores>>> = {
  /** Memory for one process on a laptop. */
  // Its ids are drawn from --random-seed: the same seed and requests, the same ids. (Redis draws WebCrypto's:
  // processes sharing one store with one seed would draw the same ids.)
  memory: async (config) => {
    const records = createMemoryRecordStore(idRandom(config.randomSeed));
    return {
      records,
      limiter: createMemoryLimiterStore(),
      seedIfNew: (seed, resources) => records.reset(seed, resources),
      close: async () => undefined,
    };
  },
  /** Redis when processes share state. Rejects when Redis is unreachable. */
  redis: async (config, log) => {
    // Loaded only when asked for: a laptop's memory store never needs the Redis client.
    const { createRedisStores } = await import('./redis-stores');
    const redis = await createRedisStores({ url: config.redisUrl, log: (e) => log.event(e.level, e.msg) });
    return {
      records: redis.records,
      limiter: redis.limiter,
      seedIfNew: (seed, resources) => redis.records.seedIfNew(seed, resources),
      close: () => redis.close(),
    };
  },
};

/** The names `--store` takes. */
export const STORE_NAMES: readonly string[] = Object.keys(STORES);

/** The stores the config names (the config parser has checked the name). */
export async function createStores(config: MockConfig, log: Logger): Promise<Stores> {
  const create = STORES[config.store];
  if (!create) throw new Error(`unknown store "${config.store}" (one of ${STORE_NAMES.join(', ')})`);
  return create(config, log);
}

/** Build the stores the config asks for; only this file knows which implementations exist. */
import type { NewCategory } from '../../../spec/types';
import type { MockConfig } from '../config';
import type { Logger } from '../../core/log';
import { createMemoryCategoryStore } from '../../core/stores/memory-category-store';
import { createMemoryLimiterStore } from '../../core/stores/memory-limiter-store';
import type { CategoryStore, LimiterStore } from '../../core/stores/types';

export interface Stores {
  categories: CategoryStore;
  limiter: LimiterStore;
  close(): Promise<void>;
}

/**
 * Memory for one process on a laptop (starts with the seed); Redis when processes share state (the seed is
 * stored only into an empty Redis, so restarting a process loses nothing). Rejects when Redis is unreachable.
 */
export async function createStores(
  config: MockConfig,
  log: Logger,
  seed: readonly NewCategory[],
): Promise<Stores> {
  if (config.store === 'redis') {
    // Loaded only when asked for: a laptop's memory store never needs the Redis client.
    const { createRedisStores } = await import('./redis-stores');
    const redis = await createRedisStores({
      url: config.redisUrl,
      seed,
      log: (e) => log.event(e.level, e.msg),
    });
    return { categories: redis.categories, limiter: redis.limiter, close: () => redis.close() };
  }
  const categories = createMemoryCategoryStore(seed);
  const limiter = createMemoryLimiterStore();
  return { categories, limiter, close: async () => undefined };
}

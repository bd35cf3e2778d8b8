/** Build the stores the config asks for; only this file knows which implementations exist. */
import type { MockConfig } from '../config';
import type { Logger } from '../log';
import { createMemoryCategoryStore } from './memory-category-store';
import { createMemoryLimiterStore } from './memory-limiter-store';
import type { CategoryStore, LimiterStore } from './types';

export interface Stores {
  categories: CategoryStore;
  limiter: LimiterStore;
  close(): Promise<void>;
}

/** Memory for one process on a laptop; Redis when processes share state. Rejects when the store is unreachable. */
export async function createStores(config: MockConfig, _log: Logger): Promise<Stores> {
  if (config.store === 'redis') throw new Error('the redis store is not available in this build');
  const categories = createMemoryCategoryStore();
  const limiter = createMemoryLimiterStore();
  return { categories, limiter, close: async () => undefined };
}

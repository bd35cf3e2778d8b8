import { createMemoryCategoryStore } from './memory-category-store';
import { createMemoryLimiterStore } from './memory-limiter-store';
import { categoryStoreSuite, limiterStoreSuite } from '../../../test/support/store-suite';

categoryStoreSuite('memory', async () => createMemoryCategoryStore());
limiterStoreSuite('memory', async () => createMemoryLimiterStore());

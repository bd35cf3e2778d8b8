import { createMemoryRecordStore } from './memory-record-store';
import { createMemoryLimiterStore } from './memory-limiter-store';
import { recordStoreSuite, limiterStoreSuite } from '../../../test/support/store-suite';

recordStoreSuite('memory', async () => createMemoryRecordStore());
limiterStoreSuite('memory', async () => createMemoryLimiterStore());

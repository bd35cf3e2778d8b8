/**
 * The Redis-backed stores for a shared mock: several mock processes behind a load balancer see the same
 * records and the same rate limits (issue 6). Only main.ts builds these; the pipeline sees the interfaces.
 */
import { commandName } from '../../../spec/paths';
import { createRedisRecordStore, type RedisRecordStore } from './redis-record-store';
import { connectRedis, type RedisLog } from './redis-connection';
import { createRedisLimiterStore } from './redis-limiter-store';
import type { AsyncStore, LimiterStore } from '../../core/stores/types';

export { redactRedisUrl } from './redis-connection';

export interface RedisStoresOptions {
  /** `redis://[:password@]host:port[/db]`; the password never appears in a message or log. */
  url: string;
  /** Put before every key, so several mocks can share one Redis; default the mock command's name and a colon. */
  prefix?: string;
  /** A store call fails with StoreUnavailableError after this long without an answer; default 500. */
  commandTimeoutMs?: number;
  /** Longest wait for Redis at start before the promise rejects; default 3000. */
  connectTimeoutMs?: number;
  /** Told once when an outage starts and once when it ends, never per request. */
  log?: RedisLog;
}

export interface RedisStores {
  records: RedisRecordStore;
  limiter: AsyncStore<LimiterStore>;
  /** Close the connection (also done once both stores are closed). */
  close(): Promise<void>;
}

/** Connect to Redis and build both stores on one connection; rejects when Redis cannot be reached. */
export async function createRedisStores(options: RedisStoresOptions): Promise<RedisStores> {
  const conn = await connectRedis(options);
  const prefix = options.prefix ?? `${commandName('mock')}:`;
  // Each store's close() releases its share; the connection closes when neither needs it any more.
  let open = 2;
  const release = async (): Promise<void> => {
    if (--open === 0) await conn.close();
  };
  const once = (fn: () => Promise<void>): (() => Promise<void>) => {
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      await fn();
    };
  };
  let lostLogged = 0;
  const onLost = () => {
    // Logged at most once a minute: a Redis restarted without persistence lost every record.
    if (Date.now() - lostLogged < 60_000) return;
    lostLogged = Date.now();
    options.log?.({
      level: 'error',
      msg: 'Redis lost its data (restarted without persistence?): stored records are gone; ids continue above those already handed out',
    });
  };
  const records = createRedisRecordStore(conn, prefix, once(release), onLost);
  const limiter = createRedisLimiterStore(conn, prefix, once(release));
  return { records, limiter, close: () => conn.close() };
}

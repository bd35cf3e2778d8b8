/**
 * One ioredis connection shared by the Redis stores, wrapped in a small circuit breaker: while Redis is
 * lost every call fails at once with StoreUnavailableError (the pipeline answers 503), a probe notices
 * when it is back, and the outage is logged once when it starts and once when it ends.
 */
import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { maskSecrets, maskUrl } from '../../../spec/redact';
import { StoreUnavailableError } from '../../core/stores/types';

export type RedisLog = (event: { level: 'info' | 'warn' | 'error'; msg: string }) => void;

export interface RedisConnectionOptions {
  url: string;
  /** Longest wait for one command before it fails with StoreUnavailableError. */
  commandTimeoutMs?: number;
  /** Longest wait for the first connection at start. */
  connectTimeoutMs?: number;
  log?: RedisLog;
}

export interface LuaScript {
  source: string;
  sha: string;
}

export interface RedisConnection {
  /** Run Redis commands; connection failures become StoreUnavailableError, and fail at once while Redis is down. */
  run<T>(work: (client: Redis) => Promise<T>): Promise<T>;
  /** Run a Lua script by its SHA, sending the source only when Redis does not know it (e.g. after a restart). */
  evalScript(
    script: LuaScript,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown>;
  /**
   * Hear every message on `channel` through a second connection that reconnects and resubscribes by itself
   * (messages published while it is away are missed, as Redis pub/sub does).
   */
  subscribe(channel: string, onMessage: (message: string) => void): void;
  /** Called each time the connection is ready again after it was lost (not at start). */
  onReconnect(listener: () => void): void;
  /** Whether the last command or probe found Redis unavailable (the readiness probe reads it). */
  isDown(): boolean;
  close(): Promise<void>;
}

const DEFAULT_COMMAND_TIMEOUT_MS = 500;
const DEFAULT_CONNECT_TIMEOUT_MS = 3000;
const MAX_RECONNECT_DELAY_MS = 2000;
/** Reply errors that mean "Redis cannot serve right now", not "our command is wrong". */
const UNAVAILABLE_REPLY =
  /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY|MISCONF|NOAUTH|WRONGPASS|OOM)\b/;

/** Prepare a Lua script for evalScript. */
export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** The URL without its password, for messages and logs (a malformed URL keeps no user part at all). */
export const redactRedisUrl = maskUrl;

const errorText = (err: unknown): string => maskSecrets(err instanceof Error ? err.message : String(err));

/** Connect to Redis at `url`; rejects with a clear message (no password) when it cannot be reached in time. */
export async function connectRedis(options: RedisConnectionOptions): Promise<RedisConnection> {
  const where = redactRedisUrl(options.url);
  const log: RedisLog = options.log ?? (() => undefined);
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  let started = false;
  let closing = false;

  const client = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    commandTimeout: commandTimeoutMs,
    // No queue while disconnected: a call fails now instead of piling up and hanging the request.
    enableOfflineQueue: false,
    // Never resend a command after a reconnect: INCR and the limiter script must not count twice.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // At start, fail at once (the caller refuses to start); later, reconnect forever with a capped backoff.
    retryStrategy: (times) =>
      started ? Math.min(100 * 2 ** Math.min(times, 5), MAX_RECONNECT_DELAY_MS) : null,
  });

  let down: { sinceMs: number } | undefined;
  let probe: NodeJS.Timeout | undefined;
  const markUp = (): void => {
    if (!down) return;
    log({
      level: 'info',
      msg: `Redis at ${where} is back after ${Date.now() - down.sinceMs} ms; serving again`,
    });
    down = undefined;
    clearInterval(probe);
    probe = undefined;
  };
  const markDown = (reason: string): void => {
    if (down || closing || !started) return;
    down = { sinceMs: Date.now() };
    log({
      level: 'error',
      msg: `Redis at ${where} is unavailable (${reason}); answering 503 until it returns`,
    });
    // A reconnect announces itself with 'ready'; a paused or stalled server only answers a probe.
    probe = setInterval(
      () => {
        if (client.status === 'ready') client.ping().then(markUp, () => undefined);
      },
      Math.max(100, commandTimeoutMs),
    );
    probe.unref();
  };
  // The listener also keeps ioredis from printing every failed reconnect attempt.
  let firstError: string | undefined;
  client.on('error', (err: unknown) => {
    firstError ??= errorText(err);
    markDown(errorText(err));
  });
  client.on('close', () => markDown('connection closed'));
  client.on('ready', () => {
    markUp();
    if (started && !closing) for (const listener of reconnectListeners) listener();
  });
  const reconnectListeners: Array<() => void> = [];
  let subscriber: Redis | undefined;
  const channels: Array<[string, (message: string) => void]> = [];

  try {
    await withTimeout(client.connect(), connectTimeoutMs);
    await client.ping();
  } catch (err) {
    client.disconnect();
    // The 'error' event says why (ECONNREFUSED, WRONGPASS...); connect() only says the connection closed.
    throw new Error(`cannot reach Redis at ${where}: ${firstError ?? errorText(err)}`);
  }
  started = true;

  const unavailable = (err: unknown): StoreUnavailableError => {
    const reason = errorText(err);
    markDown(reason);
    return new StoreUnavailableError(`Redis at ${where} is unavailable: ${reason}`);
  };
  const run = async <T>(work: (c: Redis) => Promise<T>): Promise<T> => {
    if (down || closing) throw new StoreUnavailableError(`Redis at ${where} is unavailable`);
    try {
      const result = await work(client);
      markUp();
      return result;
    } catch (err) {
      // A reply error is Redis refusing our command (a bug), unless it says Redis cannot serve now.
      if (err instanceof Error && err.name === 'ReplyError' && !UNAVAILABLE_REPLY.test(err.message))
        throw err;
      throw unavailable(err);
    }
  };

  return {
    run,
    evalScript: (script, keys, args) =>
      run(async (c) => {
        try {
          return await c.evalsha(script.sha, keys.length, ...keys, ...args);
        } catch (err) {
          if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
          return c.eval(script.source, keys.length, ...keys, ...args);
        }
      }),
    subscribe: (channel, onMessage) => {
      if (!subscriber) {
        // Subscriptions wait for a connection and come back after a reconnect; nothing here can hang a request.
        subscriber = client.duplicate({
          enableOfflineQueue: true,
          maxRetriesPerRequest: null,
          disconnectTimeout: 100,
        });
        subscriber.on('error', () => undefined);
        subscriber.on('message', (ch: string, message: string) => {
          for (const [name, listener] of channels) if (name === ch) listener(message);
        });
        subscriber.connect().catch(() => undefined);
      }
      channels.push([channel, onMessage]);
      subscriber.subscribe(channel).catch(() => undefined);
    },
    onReconnect: (listener) => void reconnectListeners.push(listener),
    isDown: () => down !== undefined || closing,
    close: async () => {
      if (closing) return;
      closing = true;
      clearInterval(probe);
      subscriber?.disconnect();
      await client.quit().catch(() => client.disconnect());
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

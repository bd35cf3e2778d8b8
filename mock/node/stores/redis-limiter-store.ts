/**
 * Rate-limit counters in Redis, shared by every mock process. `consume` is one Lua script, so the ban
 * check, the window check, the ban decision and the increments happen atomically across processes.
 *
 * Why not rate-limiter-flexible's RateLimiterRedis: it takes the time from the real clock inside
 * (Date.now()), so tests cannot move an injected clock across minute and day boundaries, and each of its
 * limiters counts one window: checking the minute and the day window together, counting nothing when
 * either is full, and turning repeated rejections into a ban would take several calls, with races between
 * processes in between. One script with the same semantics as the memory store does all of it at once.
 */
import { createHash } from 'node:crypto';
import { luaScript, type RedisConnection } from './redis-connection';
import {
  windowIndex,
  type AsyncStore,
  type ConsumeOutcome,
  type LimiterStore,
  type WindowSpec,
} from '../../core/stores/types';

const MINUTE_MS = 60_000;
/** Keys outlive their window by this much, so a process whose clock runs a little late still finds them. */
const EXPIRY_GRACE_MS = 5_000;

// KEYS[1] ban (value: banned-until ms), KEYS[2] rejections in this minute, KEYS[3..] one counter per
// window, its index in the key name. ARGV[1] now ms, ARGV[2] ban threshold (0: no bans), ARGV[3] ban ms,
// ARGV[4] TTL of the rejection counter, then per window its limit and its TTL.
// Reply: { 0 admitted | 1 limited | 2 banned, banned-until ms, count of each window... }.
const CONSUME = luaScript(`
local now = tonumber(ARGV[1])
local n = #KEYS - 2
local used = {}
for i = 1, n do used[i] = tonumber(redis.call('GET', KEYS[i + 2]) or '0') end
local bannedUntil = tonumber(redis.call('GET', KEYS[1]) or '0')
if bannedUntil > now then return { 2, bannedUntil, unpack(used) } end
for i = 1, n do
  if used[i] >= tonumber(ARGV[3 + 2 * i]) then
    local rejected = redis.call('INCR', KEYS[2])
    if rejected == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
    local threshold = tonumber(ARGV[2])
    if threshold > 0 and rejected >= threshold then
      local banMs = tonumber(ARGV[3])
      redis.call('SET', KEYS[1], string.format('%d', now + banMs), 'PX', math.max(1, banMs))
      redis.call('DEL', KEYS[2])
      return { 2, now + banMs, unpack(used) }
    end
    return { 1, 0, unpack(used) }
  end
end
for i = 1, n do
  used[i] = redis.call('INCR', KEYS[i + 2])
  if used[i] == 1 then redis.call('PEXPIRE', KEYS[i + 2], ARGV[4 + 2 * i]) end
end
return { 0, 0, unpack(used) }
`);

const KINDS = ['admitted', 'limited', 'banned'] as const;

/** Milliseconds from `nowMs` to the end of its window, plus the grace. */
const ttlMs = (windowMs: number, nowMs: number): number =>
  (Math.floor(nowMs / windowMs) + 1) * windowMs - nowMs + EXPIRY_GRACE_MS;

const escapeGlob = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&');

/** Build a limiter store on `conn`, with every key under `prefix`. */
export function createRedisLimiterStore(
  conn: RedisConnection,
  prefix: string,
  onClose: () => Promise<void>,
): AsyncStore<LimiterStore> {
  // Subjects are API keys and client addresses: Redis only ever sees a hash of them.
  const base = (subject: string): string =>
    `${prefix}rl:${createHash('sha256').update(subject).digest('base64url').slice(0, 22)}`;
  const windowKeys = (b: string, windows: readonly WindowSpec[], nowMs: number): string[] =>
    windows.map((w) => `${b}:${w.name}:${windowIndex(w, nowMs)}`);

  const consume = async (...[subject, windows, nowMs, ban]: Parameters<LimiterStore['consume']>) => {
    const b = base(subject);
    const keys = [`${b}:ban`, `${b}:rej:${Math.floor(nowMs / MINUTE_MS)}`, ...windowKeys(b, windows, nowMs)];
    const args = [nowMs, ban.threshold, ban.banMs, ttlMs(MINUTE_MS, nowMs)];
    for (const w of windows) args.push(w.limit, ttlMs(w.windowMs, nowMs));
    const reply = (await conn.evalScript(CONSUME, keys, args)) as number[];
    const [code = 0, untilMs = 0, ...used] = reply;
    const kind = KINDS[code] ?? 'limited';
    const outcome: ConsumeOutcome = kind === 'banned' ? { kind, untilMs, used } : { kind, used };
    return outcome;
  };

  return {
    consume,
    peek: async (subject, windows, nowMs) => {
      if (windows.length === 0) return [];
      const counts = await conn.run((c) => c.mget(windowKeys(base(subject), windows, nowMs)));
      return counts.map((v) => Number(v ?? 0));
    },
    reset: () =>
      conn.run(async (c) => {
        let cursor = '0';
        do {
          const [next, found] = await c.scan(cursor, 'MATCH', `${escapeGlob(prefix)}rl:*`, 'COUNT', 1000);
          if (found.length > 0) await c.unlink(...found);
          cursor = next;
        } while (cursor !== '0');
      }),
    close: onClose,
  };
}

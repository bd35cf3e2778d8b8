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
  MAX_HELD_TRACKED,
  limitedUntil,
  orderHeld,
  windowIndex,
  type AsyncStore,
  type HeldCaller,
  type HeldCallers,
  type ConsumeOutcome,
  type LimiterStore,
  type WindowSpec,
} from '../../core/stores/types';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
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

// KEYS[1] the held set. ARGV[1] subject, ARGV[2] when its hold ends (ms), ARGV[3] now ms, ARGV[4] most members,
// ARGV[5] grace ms. Keeps the later end, drops ended holds, then the soonest-ending beyond the cap; the set
// expires with its last hold.
const NOTE_HELD = luaScript(`
local old = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0')
if tonumber(ARGV[2]) > old then redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if extra > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1) end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then
  redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(last[2]) - tonumber(ARGV[3]) + tonumber(ARGV[5])))
end
return 0
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
  // Subjects are key digests and client addresses: the counters are named by a hash of them; only the held set
  // (callers refused right now, for the inspector) names them, as the memory store's table does.
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
    if (kind !== 'admitted')
      await noteHeld(subject, Math.max(untilMs, limitedUntil(windows, used, nowMs)), nowMs);
    const outcome: ConsumeOutcome = kind === 'banned' ? { kind, untilMs, used } : { kind, used };
    return outcome;
  };

  // The held callers, for the inspector: one sorted set, each refused subject scored by when its hold ends
  // (ban or full window), trimmed of ended holds on every write and capped at MAX_HELD_TRACKED members.
  const heldKey = `${prefix}rl:held`;
  const noteHeld = (subject: string, untilMs: number, nowMs: number): Promise<unknown> =>
    conn.evalScript(NOTE_HELD, [heldKey], [subject, untilMs, nowMs, MAX_HELD_TRACKED, EXPIRY_GRACE_MS]);

  const held = async (nowMs: number, max: number): Promise<HeldCallers> => {
    const limit = Math.max(0, Math.min(max, MAX_HELD_TRACKED));
    // Bans first: every held subject's ban is read, so a ban is never cut off by limited callers ending later.
    const found = await conn.run((c) =>
      c.zrangebyscore(heldKey, `(${nowMs}`, '+inf', 'WITHSCORES', 'LIMIT', 0, MAX_HELD_TRACKED),
    );
    const subjects: string[] = [];
    const scores: number[] = [];
    for (let i = 0; i + 1 < found.length; i += 2) {
      subjects.push(found[i] ?? '');
      scores.push(Number(found[i + 1]));
    }
    if (subjects.length === 0) return { callers: [], truncated: false };
    const bans = await conn.run((c) => c.mget(subjects.map((s) => `${base(s)}:ban`)));
    const callers: HeldCaller[] = subjects.map((subject, i) => {
      const bannedUntil = Number(bans[i] ?? 0);
      return bannedUntil > nowMs
        ? { subject, state: 'banned', untilMs: bannedUntil }
        : { subject, state: 'limited', untilMs: scores[i] ?? 0 };
    });
    return orderHeld(callers, limit);
  };

  const lift = async (subject: string, nowMs: number): Promise<boolean> => {
    const b = base(subject);
    const minute = Math.floor(nowMs / MINUTE_MS);
    const keys = [
      `${b}:ban`,
      `${b}:rej:${minute}`,
      `${b}:minute:${minute}`,
      `${b}:day:${Math.floor(nowMs / DAY_MS)}`,
    ];
    const [score] = await conn.run(async (c) => {
      const s = await c.zscore(heldKey, subject);
      await c
        .multi()
        .del(...keys)
        .zrem(heldKey, subject)
        .exec();
      return [s];
    });
    return score !== null && score !== undefined && Number(score) > nowMs;
  };

  return {
    consume,
    held,
    lift,
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

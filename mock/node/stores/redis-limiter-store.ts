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
import { createHash, randomUUID } from 'node:crypto';
import { luaScript, type RedisConnection } from './redis-connection';
import {
  StoreUnavailableError,
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

// KEYS[1] ban (value: banned-until ms), KEYS[2] rejections in this minute, KEYS[3] the epoch marker, KEYS[4..]
// one counter per window, its index in the key name. ARGV[1] now ms, ARGV[2] ban threshold (0: no bans),
// ARGV[3] ban ms, ARGV[4] TTL of the rejection counter, ARGV[5] the epoch this process knows ('' none),
// ARGV[6] a new epoch for a Redis that never had one (a lost one is restored as the process knew it), ARGV[7] the ban this process last saw (ms, 0 none), then per
// window its limit, its TTL and the count this process last saw.
// The floors are applied only when the epoch is missing (a Redis that lost its data) or the one the process
// knows: after an admin reset elsewhere (a new epoch) they are stale and ignored.
// Reply: { 0 admitted | 1 limited | 2 banned, banned-until ms, epoch, count of each window... }.
const CONSUME = luaScript(`
local now = tonumber(ARGV[1])
local n = #KEYS - 3
local epoch = redis.call('GET', KEYS[3])
local floors = 1
if not epoch then
  if ARGV[5] ~= '' then epoch = ARGV[5] else epoch = ARGV[6] end
  redis.call('SET', KEYS[3], epoch)
elseif epoch ~= ARGV[5] then
  floors = 0
end
local used = {}
for i = 1, n do
  used[i] = tonumber(redis.call('GET', KEYS[i + 3]) or '0')
  local floor = tonumber(ARGV[7 + 3 * i])
  if floors == 1 and used[i] < floor then
    used[i] = floor
    redis.call('SET', KEYS[i + 3], floor, 'PX', ARGV[6 + 3 * i])
  end
end
local bannedUntil = tonumber(redis.call('GET', KEYS[1]) or '0')
local seenBan = tonumber(ARGV[7])
if floors == 1 and seenBan > now and bannedUntil < seenBan then
  bannedUntil = seenBan
  redis.call('SET', KEYS[1], string.format('%d', seenBan), 'PX', math.max(1, seenBan - now))
end
if bannedUntil > now then return { 2, bannedUntil, epoch, unpack(used) } end
for i = 1, n do
  if used[i] >= tonumber(ARGV[5 + 3 * i]) then
    local rejected = redis.call('INCR', KEYS[2])
    if rejected == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
    local threshold = tonumber(ARGV[2])
    if threshold > 0 and rejected >= threshold then
      local banMs = tonumber(ARGV[3])
      redis.call('SET', KEYS[1], string.format('%d', now + banMs), 'PX', math.max(1, banMs))
      redis.call('DEL', KEYS[2])
      return { 2, now + banMs, epoch, unpack(used) }
    end
    return { 1, 0, epoch, unpack(used) }
  end
end
for i = 1, n do
  used[i] = redis.call('INCR', KEYS[i + 3])
  if used[i] == 1 then redis.call('PEXPIRE', KEYS[i + 3], ARGV[6 + 3 * i]) end
end
return { 0, 0, epoch, unpack(used) }
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
/** Most window counts (and bans) one process remembers for a Redis that loses its data; the oldest go first. */
export const MAX_REMEMBERED = 20_000;

/** Milliseconds from `nowMs` to the end of its window, plus the grace. */
const ttlMs = (windowMs: number, nowMs: number): number =>
  (Math.floor(nowMs / windowMs) + 1) * windowMs - nowMs + EXPIRY_GRACE_MS;

const escapeGlob = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&');

/**
 * What this process last saw of each counter and ban, by Redis key, until the window (or ban) ends: a Redis
 * that restarts empty gets them back on the next request, so a key that spent 20 of 40 is not admitted 40 more.
 */
function createMemory(max: number) {
  const seen = new Map<string, { value: number; untilMs: number }>();
  const prune = (nowMs: number): void => {
    for (const [key, entry] of seen) if (entry.untilMs <= nowMs) seen.delete(key);
    // Still full: forget the oldest (a Map iterates in insertion order).
    for (const key of seen.keys()) {
      if (seen.size < max) break;
      seen.delete(key);
    }
  };
  return {
    get: (key: string, nowMs: number): number => {
      const entry = seen.get(key);
      return entry && entry.untilMs > nowMs ? entry.value : 0;
    },
    note: (key: string, value: number, untilMs: number, nowMs: number): void => {
      if (value <= 0 || untilMs <= nowMs) return;
      seen.delete(key);
      if (seen.size >= max) prune(nowMs);
      seen.set(key, { value, untilMs });
    },
    clear: () => seen.clear(),
    get size() {
      return seen.size;
    },
  };
}

/** Build a limiter store on `conn`, with every key under `prefix`. */
export function createRedisLimiterStore(
  conn: RedisConnection,
  prefix: string,
  onClose: () => Promise<void>,
  maxRemembered = MAX_REMEMBERED,
): AsyncStore<LimiterStore> & { remembered(): number } {
  // Subjects are key digests and client addresses: the counters are named by a hash of them; only the held set
  // (callers refused right now, for the inspector) names them, as the memory store's table does.
  const base = (subject: string): string =>
    `${prefix}rl:${createHash('sha256').update(subject).digest('base64url').slice(0, 22)}`;
  const windowKeys = (b: string, windows: readonly WindowSpec[], nowMs: number): string[] =>
    windows.map((w) => `${b}:${w.name}:${windowIndex(w, nowMs)}`);
  const epochKey = `${prefix}rl-epoch`;
  let epoch = '';
  const memory = createMemory(maxRemembered);

  const consume = async (...[subject, windows, nowMs, ban]: Parameters<LimiterStore['consume']>) => {
    const b = base(subject);
    const counters = windowKeys(b, windows, nowMs);
    const keys = [`${b}:ban`, `${b}:rej:${Math.floor(nowMs / MINUTE_MS)}`, epochKey, ...counters];
    const args: (string | number)[] = [nowMs, ban.threshold, ban.banMs, ttlMs(MINUTE_MS, nowMs)];
    args.push(epoch, randomUUID(), memory.get(`${b}:ban`, nowMs));
    windows.forEach((w, i) =>
      args.push(w.limit, ttlMs(w.windowMs, nowMs), memory.get(counters[i] ?? '', nowMs)),
    );
    let reply: (number | string)[];
    try {
      reply = (await conn.evalScript(CONSUME, keys, args)) as (number | string)[];
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      throw new StoreUnavailableError(
        err.message,
        counters.map((k) => memory.get(k, nowMs)),
      );
    }
    const [code = 0, untilMs = 0, current = '', ...counts] = reply;
    // Another process reset the counters (a new epoch): what this one remembers is stale.
    if (current !== epoch) {
      if (epoch !== '') memory.clear();
      epoch = String(current);
    }
    const used = counts.map(Number);
    windows.forEach((w, i) =>
      memory.note(counters[i] ?? '', used[i] ?? 0, nowMs + ttlMs(w.windowMs, nowMs), nowMs),
    );
    const kind = KINDS[Number(code)] ?? 'limited';
    if (kind === 'banned') memory.note(`${b}:ban`, Number(untilMs), Number(untilMs), nowMs);
    if (kind !== 'admitted')
      await noteHeld(subject, Math.max(Number(untilMs), limitedUntil(windows, used, nowMs)), nowMs);
    const outcome: ConsumeOutcome =
      kind === 'banned' ? { kind, untilMs: Number(untilMs), used } : { kind, used };
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
      // A new epoch too: no process restores the lifted counts or ban from what it remembers.
      const next = randomUUID();
      await c
        .multi()
        .del(...keys)
        .zrem(heldKey, subject)
        .set(epochKey, next)
        .exec();
      epoch = next;
      memory.clear();
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
        // A new epoch: every process's remembered counts are stale now, not a lost Redis's to restore.
        epoch = randomUUID();
        memory.clear();
        await c.set(epochKey, epoch);
      }),
    close: onClose,
    remembered: () => memory.size,
  };
}

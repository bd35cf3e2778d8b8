/**
 * Records in Redis, shared by every mock process. Per resource: an id/ordinal counter, a hash of id -> JSON, a
 * sorted set keeping creation order, and a version counter. Each change is one Lua script, so it is atomic
 * across processes. A Redis that restarts empty (no persistence) is noticed by a marker key; ids never go back:
 * each create publishes the counter value it took, every process keeps the highest it has seen (its own and
 * the others'), raises the shared counter past it when the connection comes back, and passes it with each
 * create, so the counter resumes above every id any living process saw handed out.
 */
import { randomUUID } from 'node:crypto';
import type {
  AsyncStore,
  CreateOutcome,
  JsonObject,
  RecordStore,
  SeedData,
  StoreResource,
} from '../../core/stores/types';
import { makeId, smallSpace } from '../../../spec/id-form';
import { MAX_DRAWS, randomBelow } from '../../core/stores/memory-record-store';
import { luaScript, type RedisConnection } from './redis-connection';

// KEYS: seq, hash, order, version, marker. ARGV: cap, floor, mode (int|prefixed|given), id key JSON, body JSON,
// given id, prefix, the channel and the resource's name (every process hears each counter value handed out). `prefixed`: the prefix and the counter (`sched_7`), past any id a client took.
// Returns [status, id, lost]: status 1 created, -1 full, -2 duplicate; lost = 1 when the marker was missing.
const CREATE = luaScript(`
local lost = 0
if redis.call('EXISTS', KEYS[5]) == 0 then lost = 1; redis.call('SET', KEYS[5], '1') end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[1]) then return {-1, '', lost} end
local seq = redis.call('INCR', KEYS[1])
local floor = tonumber(ARGV[2])
if seq <= floor then seq = floor + 1; redis.call('SET', KEYS[1], seq) end
local id
local json
if ARGV[3] == 'int' then
  id = string.format('%d', seq)
  if ARGV[5] == '{}' then json = '{' .. ARGV[4] .. ':' .. id .. '}'
  else json = '{' .. ARGV[4] .. ':' .. id .. ',' .. string.sub(ARGV[5], 2) end
elseif ARGV[3] == 'prefixed' then
  id = ARGV[7] .. string.format('%d', seq)
  while redis.call('HEXISTS', KEYS[2], id) == 1 do
    seq = redis.call('INCR', KEYS[1])
    id = ARGV[7] .. string.format('%d', seq)
  end
  local quoted = '"' .. id .. '"'
  if ARGV[5] == '{}' then json = '{' .. ARGV[4] .. ':' .. quoted .. '}'
  else json = '{' .. ARGV[4] .. ':' .. quoted .. ',' .. string.sub(ARGV[5], 2) end
else
  id = ARGV[6]
  json = ARGV[5]
  if redis.call('HEXISTS', KEYS[2], id) == 1 then return {-2, id, lost} end
end
redis.call('HSET', KEYS[2], id, json)
redis.call('ZADD', KEYS[3], seq, id)
redis.call('INCR', KEYS[4])
redis.call('PUBLISH', ARGV[8], ARGV[9] .. ' ' .. string.format('%d', seq))
return {1, id, lost}
`);

// KEYS: seq. ARGV: the highest counter value this process has seen. Raises the counter to it, never lowers it.
const RAISE = luaScript(`
local floor = tonumber(ARGV[1])
if tonumber(redis.call('GET', KEYS[1]) or '0') < floor then redis.call('SET', KEYS[1], floor) end
return 1
`);

// KEYS: hash, version. ARGV: id, JSON. 1 replaced, 0 no such record.
const REPLACE = luaScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('INCR', KEYS[2])
return 1
`);

// KEYS: hash, order, version. ARGV: id. The removed JSON, or false.
const REMOVE = luaScript(`
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('INCR', KEYS[3])
return json
`);

// KEYS: hash, order. Every JSON in creation order, read in one atomic step.
const LIST = luaScript(`
local ids = redis.call('ZRANGE', KEYS[2], 0, -1)
if #ids == 0 then return {} end
return redis.call('HMGET', KEYS[1], unpack(ids))
`);

/** Published on the ids channel by a reset (a resource's name is URI-encoded, so it never holds a space). */
const RESET_MESSAGE = '* reset';

export interface RedisRecordStore extends AsyncStore<RecordStore> {
  /** Store `seed` unless this Redis was initialised before (a restarting process keeps what is stored). */
  seedIfNew(seed: SeedData, resources: readonly StoreResource[]): Promise<boolean>;
}

/** Build a record store on `conn`, every key under `prefix`; `onLost` hears of a Redis that lost its data. */
export function createRedisRecordStore(
  conn: RedisConnection,
  prefix: string,
  onClose: () => Promise<void>,
  onLost: () => void = () => undefined,
): RedisRecordStore {
  const marker = `${prefix}rec:initialised`;
  const keys = (name: string) => {
    const base = `${prefix}rec:${encodeURIComponent(name)}`;
    return { seq: `${base}:seq`, hash: `${base}:h`, order: `${base}:o`, version: `${base}:v` };
  };
  /** The highest integer id this process acknowledged, per resource: ids resume above it after a data loss. */
  const highWater = new Map<string, number>();
  /** This process has seen the marker: a missing one later means Redis lost its data. */
  let seenMarker = false;
  const channel = `${prefix}rec:ids`;
  const see = (name: string, value: number): void => {
    if (Number.isSafeInteger(value) && value > (highWater.get(name) ?? 0)) highWater.set(name, value);
  };
  conn.subscribe(channel, (message) => {
    // An admin reset through any process: ids start again above the seed.
    if (message === RESET_MESSAGE) return highWater.clear();
    const at = message.lastIndexOf(' ');
    see(decodeURIComponent(message.slice(0, at)), Number(message.slice(at + 1)));
  });
  // Back from an outage: put the counters past every id seen before anyone creates (a process started
  // after a Redis restart knows none, and would otherwise start again at 1).
  conn.onReconnect(() => {
    for (const [name, value] of highWater)
      conn.evalScript(RAISE, [keys(name).seq], [value]).catch(() => undefined);
  });

  const create = async (r: StoreResource, record: JsonObject, max: number): Promise<CreateOutcome> => {
    // A random id in the document's form that another record holds already is drawn again.
    for (let attempt = 1; attempt <= MAX_DRAWS; attempt++) {
      const out = await createOnce(r, record, max);
      if (out.ok || out.reason !== 'duplicate' || !out.drawn) return out.outcome;
    }
    // A small random space (`^[0-9a-f]{4}$`) may be nearly full: a free id from the whole space, or none.
    for (let attempt = 0; attempt < 8 && r.idForm && r.idField; attempt++) {
      const taken = new Set(await conn.run((c) => c.hkeys(keys(r.name).hash)));
      const free = [...smallSpace(r.idForm)].find((id) => !taken.has(id));
      if (free === undefined) break;
      const out = await createOnce(r, { [r.idField]: free, ...record }, max);
      if (out.ok || out.reason !== 'duplicate') return out.outcome;
    }
    return { ok: false, reason: 'ids' };
  };

  const createOnce = async (
    r: StoreResource,
    record: JsonObject,
    max: number,
  ): Promise<{ ok: boolean; reason?: string; drawn: boolean; outcome: CreateOutcome }> => {
    const k = keys(r.name);
    const field = r.idField;
    const given = field === undefined ? undefined : record[field];
    const hasGiven = given !== undefined && given !== null;
    const form = r.idType === 'string' && !hasGiven ? r.idForm : undefined;
    let mode = 'int';
    let id = '';
    let json: string;
    let rest: JsonObject = record;
    if (form?.kind === 'counter' || !(hasGiven || (field !== undefined && r.idType === 'string'))) {
      if (form) mode = 'prefixed';
      rest = { ...record };
      if (field !== undefined) delete rest[field];
      json = JSON.stringify(rest);
    } else {
      mode = 'given';
      const value = hasGiven ? given : form ? makeId(form, 0, randomBelow) : randomUUID();
      id = String(value);
      json = JSON.stringify({ [field as string]: value, ...record });
    }
    const floor = highWater.get(r.name) ?? 0;
    const idKey = JSON.stringify(field ?? '_seq');
    const out = (await conn.evalScript(
      CREATE,
      [k.seq, k.hash, k.order, k.version, marker],
      [
        max,
        floor,
        mode,
        field === undefined ? '""' : idKey,
        json,
        id,
        form?.prefix ?? '',
        channel,
        encodeURIComponent(r.name),
      ],
    )) as [number, string, number];
    if (out[2] === 1 && seenMarker) onLost();
    seenMarker = true;
    const drawn = form !== undefined;
    if (out[0] === -1) return { ok: false, drawn, outcome: { ok: false, reason: 'full' } };
    if (out[0] === -2)
      return { ok: false, reason: 'duplicate', drawn, outcome: { ok: false, reason: 'duplicate' } };
    const assigned = out[1];
    if (mode === 'int') highWater.set(r.name, Math.max(floor, Number(assigned)));
    else if (mode === 'prefixed')
      highWater.set(r.name, Math.max(floor, Number(assigned.slice(form?.prefix.length ?? 0)) || 0));
    else if (typeof given === 'number') highWater.set(r.name, Math.max(floor, given));
    const stored: JsonObject =
      mode === 'given'
        ? (JSON.parse(json) as JsonObject)
        : field === undefined
          ? rest
          : { [field]: mode === 'int' ? Number(assigned) : assigned, ...rest };
    return { ok: true, drawn, outcome: { ok: true, record: stored } };
  };

  /** The buckets kept per parent under a resource (`gadgets/a`, `gadgets/b`), by their order keys. */
  const bucketsUnder = async (name: string): Promise<string[]> => {
    const base = `${prefix}rec:${encodeURIComponent(`${name}/`)}`;
    const found = await conn.run((c) => c.keys(`${base.replace(/[*?[\]\\]/g, '\\$&')}*:o`));
    return found.map((k) => decodeURIComponent(k.slice(`${prefix}rec:`.length, -':o'.length)));
  };

  const listOf = async (name: string): Promise<JsonObject[]> => {
    const k = keys(name);
    const rows = (await conn.evalScript(LIST, [k.hash, k.order], [])) as Array<string | null>;
    return rows.filter((r): r is string => r !== null).map((r) => JSON.parse(r) as JsonObject);
  };

  const reset = async (
    seed: SeedData,
    resources: readonly StoreResource[],
    onlyIfNew: boolean,
  ): Promise<boolean> => {
    if (onlyIfNew && (await conn.run((c) => c.exists(marker))) === 1) return false;
    // With the buckets kept per parent (`gadgets/default`: spec/resource-types.ts `scope`).
    const scoped = await Promise.all(resources.map((r) => bucketsUnder(r.name)));
    const names = [...resources.map((r) => r.name), ...scoped.flat()];
    const all = names.flatMap((name) => Object.values(keys(name)).filter((key) => !key.endsWith(':v')));
    if (all.length) await conn.run((c) => c.del(...all));
    await conn.run((c) => c.set(marker, '1'));
    seenMarker = true;
    highWater.clear();
    for (const r of resources) {
      await conn.run((c) => c.incr(keys(r.name).version));
      for (const entry of seed[r.name] ?? []) await create(r, entry, Number.MAX_SAFE_INTEGER);
    }
    highWater.clear();
    await conn.run((c) => c.publish(channel, RESET_MESSAGE));
    return true;
  };

  return {
    create,
    list: listOf,
    listEvery: async (name) => {
      const lists = await Promise.all([name, ...(await bucketsUnder(name))].map(listOf));
      return lists.flat();
    },
    get: async (name, id) => {
      const row = await conn.run((c) => c.hget(keys(name).hash, id));
      return row === null ? undefined : (JSON.parse(row) as JsonObject);
    },
    replace: async (r, id, record) => {
      const k = keys(r.name);
      const field = r.idField;
      const idValue = r.idType === 'integer' && /^\d+$/.test(id) ? Number(id) : id;
      const stored: JsonObject =
        field === undefined ? { ...record } : { [field]: idValue, ...record, [field]: idValue };
      const done = await conn.evalScript(REPLACE, [k.hash, k.version], [id, JSON.stringify(stored)]);
      return done === 1 ? stored : undefined;
    },
    remove: async (name, id) => {
      const k = keys(name);
      const json = (await conn.evalScript(REMOVE, [k.hash, k.order, k.version], [id])) as string | null;
      return json ? (JSON.parse(json) as JsonObject) : undefined;
    },
    version: async (name) => Number((await conn.run((c) => c.get(keys(name).version))) ?? 0),
    reset: async (seed, resources) => {
      await reset(seed, resources, false);
    },
    seedIfNew: (seed, resources) => reset(seed, resources, true),
    close: onClose,
  };
}

/**
 * Categories in Redis, shared by every mock process: ids from one atomic INCR, creation order kept in a
 * list of Category JSON, and a version counter every process can read. Each change is one Lua script, so
 * it is atomic across processes.
 */
import type { Category, NewCategory } from '../../../spec/types';
import { luaScript, type RedisConnection } from './redis-connection';
import type { CategoryStore } from '../../core/stores/types';

// KEYS: id counter, list, version. The client sends the category JSON without its id (`{"name":...}`),
// and the script puts the new id first, so the list holds complete Category documents in creation order.
const CREATE = luaScript(`
local id = redis.call('INCR', KEYS[1])
redis.call('RPUSH', KEYS[2], '{"id":' .. string.format('%d', id) .. ',' .. string.sub(ARGV[1], 2))
redis.call('INCR', KEYS[3])
return id
`);

// KEYS: id counter, list, version; ARGV: the seed, one category JSON without id each; ARGV[1] = '1' to
// seed only a store that was never initialised (so a restarting mock process keeps what is stored).
const RESET = luaScript(`
if ARGV[1] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2])
for i = 2, #ARGV do
  redis.call('RPUSH', KEYS[2], '{"id":' .. string.format('%d', i - 1) .. ',' .. string.sub(ARGV[i], 2))
end
redis.call('SET', KEYS[1], #ARGV - 1)
redis.call('INCR', KEYS[3])
return 1
`);

/** The published fields only, as JSON, `name` first: nothing else the client sent is ever stored. */
function encode(input: NewCategory): string {
  const fields: NewCategory = { name: input.name };
  if (input.description !== undefined) fields.description = input.description;
  return JSON.stringify(fields);
}

export interface RedisCategoryStore extends CategoryStore {
  /** Store `seed` unless this Redis already holds categories (or an empty, reset list); true when seeded. */
  seedIfEmpty(seed: readonly NewCategory[]): Promise<boolean>;
}

/** Build a category store on `conn`, with every key under `prefix`. */
export function createRedisCategoryStore(
  conn: RedisConnection,
  prefix: string,
  onClose: () => Promise<void>,
): RedisCategoryStore {
  const keys = [`${prefix}cat:seq`, `${prefix}cat:list`, `${prefix}cat:version`] as const;
  const reset = async (seed: readonly NewCategory[], onlyIfNew: boolean): Promise<boolean> =>
    (await conn.evalScript(RESET, keys, [onlyIfNew ? '1' : '0', ...seed.map(encode)])) === 1;

  return {
    create: async (input) => {
      const id = Number(await conn.evalScript(CREATE, keys, [encode(input)]));
      const category: Category = { id, name: input.name };
      if (input.description !== undefined) category.description = input.description;
      return category;
    },
    list: async () => {
      const rows = await conn.run((c) => c.lrange(keys[1], 0, -1));
      return rows.map((row) => JSON.parse(row) as Category);
    },
    version: async () => Number((await conn.run((c) => c.get(keys[2]))) ?? 0),
    reset: async (seed) => {
      await reset(seed, false);
    },
    seedIfEmpty: (seed) => reset(seed, true),
    close: onClose,
  };
}

/** Records in process memory: the embedded default for one mock on a laptop, and the engine in a browser. */
import { makeId, smallSpace } from '../../../spec/id-form';
import { uuidFrom } from '../../../spec/random';
import type { CreateOutcome, JsonObject, RecordStore, SeedData, StoreResource } from './types';

interface Bucket {
  /** Keyed by the id as a string; a Map keeps insertion order, and `set` on a present key keeps its place. */
  items: Map<string, JsonObject>;
  seq: number;
  version: number;
  list: readonly JsonObject[] | null;
}

/** A random UUID (v4) from WebCrypto, present in Node >= 19 and every browser. */
export const uuid = (): string => globalThis.crypto.randomUUID();

/** Buckets (a resource, or a resource under one parent) before a create under a new parent counts as full. */
export const MAX_BUCKETS = 10_000;

/** Draws of a random id in the document's form before a resource counts as full. */
export const MAX_DRAWS = 64;

/** A uniform random integer below `below` (at most 256), from WebCrypto. */
export function randomBelow(below: number): number {
  const byte = new Uint8Array(1);
  const limit = 256 - (256 % below);
  do globalThis.crypto.getRandomValues(byte);
  while ((byte[0] ?? 0) >= limit);
  return (byte[0] ?? 0) % below;
}

/**
 * Build an in-memory record store. `random` draws the ids it invents (UUIDs and the random part of an id's form);
 * a seeded one makes them repeatable (`--random-seed`), WebCrypto's otherwise.
 */
export function createMemoryRecordStore(random?: () => number): RecordStore {
  const below = random ? (n: number) => Math.min(n - 1, Math.floor(random() * n)) : randomBelow;
  const newUuid = random ? () => uuidFrom(random) : uuid;
  const buckets = new Map<string, Bucket>();
  const bucket = (name: string): Bucket => {
    let b = buckets.get(name);
    if (!b) buckets.set(name, (b = { items: new Map(), seq: 0, version: 0, list: null }));
    return b;
  };
  /** A read never makes a bucket: a client naming parents nobody created grows nothing. */
  const EMPTY: readonly JsonObject[] = [];
  const changed = (b: Bucket): void => {
    b.version++;
    b.list = null;
  };

  const create = (resource: StoreResource, record: JsonObject, maxRecords: number): CreateOutcome => {
    // One bucket per parent (`gadgets/default`): their number is bounded too.
    if (!buckets.has(resource.name) && buckets.size >= MAX_BUCKETS) return { ok: false, reason: 'full' };
    const b = bucket(resource.name);
    if (b.items.size >= maxRecords) return { ok: false, reason: 'full' };
    const field = resource.idField;
    const given = field === undefined ? undefined : record[field];
    let key: string;
    let stored: JsonObject;
    if (field !== undefined && given !== undefined && given !== null) {
      key = String(given);
      if (b.items.has(key)) return { ok: false, reason: 'duplicate' };
      if (typeof given === 'number' && given > b.seq) b.seq = Math.floor(given);
      stored = { ...record };
    } else {
      let id: number | string;
      const form = resource.idType === 'string' ? resource.idForm : undefined;
      // The counter only goes up (a deleted item's id is never given again); a random part is drawn anew.
      if (resource.idType === 'integer') {
        do id = ++b.seq;
        while (b.items.has(String(id)));
      } else if (form) {
        // A small random space (`^[0-9a-f]{4}$`) can fill up: a bounded number of draws, then the resource is full.
        let draws = 0;
        do id = makeId(form, ++b.seq, below);
        while (b.items.has(id) && ++draws < MAX_DRAWS);
        for (const free of b.items.has(id) ? smallSpace(form) : [])
          if (!b.items.has(free)) {
            id = free;
            break;
          }
        if (b.items.has(id)) return { ok: false, reason: 'ids' };
      } else id = newUuid();
      key = String(id);
      // The id first, as a service that assigns it would answer.
      stored = field === undefined ? { ...record } : { [field]: id, ...record };
    }
    b.items.set(key, stored);
    changed(b);
    return { ok: true, record: stored };
  };

  // Every call but reset and close answers at once, not through a promise: a request awaits nothing.
  return {
    create,
    list: (name) => {
      const b = buckets.get(name);
      return b ? (b.list ??= [...b.items.values()]) : EMPTY;
    },
    listEvery: (name) => {
      const out: JsonObject[] = [];
      for (const [key, b] of buckets)
        if (key === name || key.startsWith(`${name}/`)) out.push(...b.items.values());
      return out;
    },
    get: (name, id) => buckets.get(name)?.items.get(id),
    replace: (resource, id, record) => {
      const b = bucket(resource.name);
      const old = b.items.get(id);
      if (!old) return undefined;
      const field = resource.idField;
      const stored =
        field === undefined ? { ...record } : { [field]: old[field], ...record, [field]: old[field] };
      b.items.set(id, stored);
      changed(b);
      return stored;
    },
    remove: (name, id) => {
      const b = buckets.get(name);
      const old = b?.items.get(id);
      if (!b || !old) return undefined;
      b.items.delete(id);
      changed(b);
      return old;
    },
    version: (name) => buckets.get(name)?.version ?? 0,
    reset: async (seed: SeedData, resources) => {
      for (const b of buckets.values()) {
        b.items.clear();
        b.seq = 0;
        changed(b);
      }
      for (const resource of resources) {
        for (const entry of seed[resource.name] ?? []) create(resource, entry, Number.MAX_SAFE_INTEGER);
      }
    },
    close: async () => undefined,
  };
}

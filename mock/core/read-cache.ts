/**
 * A stored item's answer, its bytes serialised once per store version, as the plain list's are: a repeated
 * `GET /things/10` of an unchanged item neither re-checks its answer against the schema nor re-serialises it.
 * Any write to the bucket (create, replace, patch, remove, reset) moves the store's version, which drops every
 * answer kept for it. Bounded: per read operation one bucket's entries of one version, at most MAX_ITEMS.
 */
import type { OperationSpec } from '../../spec/compile';
import type { CachedAnswer, Deps, Reply } from './context';
import { isPending, whenReady, type MaybePromise } from './stores/types';

/** A reply of its own per request (a later step may add to it); the bytes shared. */
const replyOf = (c: CachedAnswer): Reply => ({ status: c.status, raw: c.raw, contentType: c.contentType });

/** A bound on the ids a client can make us keep (the store's `--max-records` bounds the hits, not the misses). */
export const MAX_ITEMS = 10_000;

const encoder = new TextEncoder();

/** A plain JSON success (no headers, no stream, no error): the answers whose bytes depend on the record alone. */
const cacheable = (reply: Reply): boolean =>
  reply.status >= 200 &&
  reply.status < 300 &&
  reply.body !== undefined &&
  reply.raw === undefined &&
  reply.error === undefined &&
  reply.headers === undefined &&
  reply.stream === undefined;

/**
 * The answer `build` gives for item `id` of `bucket`, reused while the bucket's version holds. A store that
 * answers its version through a promise (Redis) is asked nothing more: its answers are built every time.
 */
export function cachedRead(
  deps: Pick<Deps, 'records' | 'readCache'>,
  op: OperationSpec,
  bucket: string,
  id: string,
  build: () => MaybePromise<Reply>,
): MaybePromise<Reply> {
  const version = deps.records.version(bucket);
  if (isPending(version)) return build();
  let entry = deps.readCache.get(op);
  if (entry?.version !== version || entry.bucket !== bucket) {
    entry = { bucket, version, items: new Map() };
    deps.readCache.set(op, entry);
  }
  const hit = entry.items.get(id);
  if (hit) return replyOf(hit);
  const kept = entry;
  return whenReady(build(), (reply) => {
    if (!cacheable(reply) || kept.items.size >= MAX_ITEMS) return reply;
    const bytes: CachedAnswer = {
      status: reply.status,
      raw: encoder.encode(JSON.stringify(reply.body)),
      contentType: reply.contentType,
    };
    kept.items.set(id, bytes);
    return replyOf(bytes);
  });
}

/**
 * Stateful rules on observed traffic, from the resource inference the mock and the runner share
 * (spec/resources.ts). Only items the judge saw created are judged for lifecycle rules; at most `maxTracked`
 * items are remembered, the oldest dropped first.
 */
import type { CompiledSpec } from '../../spec/compile';
import { unwrap } from '../../spec/envelope';
import { inferResources, type Binding, type Resource } from '../../spec/resources';
import type { Exchange } from '../../spec/report/types';
import type { Problem, Route } from './judge-request';
import { isObject } from '../../spec/json';
import { keyOfParams, keyParts, recordKey } from '../../spec/resource-key';

interface Tracked {
  deleted: boolean;
  /** Created and not yet seen in a full list read. */
  awaitingList: boolean;
  /** What a 2xx PUT/PATCH said the next read must show, in the media type's own semantics. */
  pendingUpdate?: Expectation[];
}

/** One field the next read must show: at `path` (top-level name first), `value`, or absent (`removed`). */
interface Expectation {
  path: string[];
  value?: unknown;
  removed?: boolean;
}

/** Observes exchanges in order and returns the stateful problems each one shows. */
export interface StateTracker {
  observe(route: Route, ex: Exchange): Problem[];
}

/** Bounds of what one tracked item holds: a longer id is not tracked, a larger update body not judged. */
const MAX_ID_CHARS = 256;
const MAX_UPDATE_CHARS = 16 * 1024;

const fail = (rule: string, message: string): Problem => ({ side: 'response', rule, message });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A tracker over the document's inferred resources (none when the inference fails: nothing stateful judged). */
export function createStateTracker(spec: CompiledSpec, maxTracked: number): StateTracker {
  const inferred = inferResources(spec);
  const byOperation = inferred.ok ? inferred.model.byOperation : new Map<string, Binding>();
  const items = new Map<string, Tracked>();
  const track = (key: string, t: Tracked) => {
    items.delete(key);
    items.set(key, t);
    if (items.size > maxTracked) items.delete(items.keys().next().value as string);
  };
  return {
    observe(route, ex) {
      const binding = route.op ? byOperation.get(route.op.operationId) : undefined;
      const res = ex.response;
      // A key of any form, top-level, nested or composite, read by spec/resource-key.ts (one reader).
      if (!binding || !res || keyParts(binding.resource).length === 0) return [];
      const r = binding.resource;
      const ok = res.status >= 200 && res.status < 300;
      const itemId = r.itemParam ? keyOfParams(r, route.pathParams) : undefined;
      const key = (id: unknown) => `${r.name} ${String(id).slice(0, MAX_ID_CHARS)}`;
      switch (binding.action) {
        case 'create': {
          const id = ok ? idOf(r, res.json) : undefined;
          if (id !== undefined && String(id).length <= MAX_ID_CHARS)
            track(key(id), { deleted: false, awaitingList: true });
          return [];
        }
        case 'read':
          return itemId === undefined
            ? []
            : judgeRead(r, items.get(key(itemId)), itemId, res.status, res.json);
        case 'remove':
          if (ok && itemId !== undefined && items.has(key(itemId)))
            track(key(itemId), { deleted: true, awaitingList: false });
          return [];
        case 'replace':
        case 'patch': {
          const t = itemId === undefined ? undefined : items.get(key(itemId));
          const text = ex.request.body ?? '';
          // An update too large to remember is not judged on the next read (and an older one is forgotten).
          const expected =
            text.length <= MAX_UPDATE_CHARS
              ? expectationsOf(r, binding.action, text, ex.request.headers)
              : undefined;
          if (ok && t && !t.deleted) t.pendingUpdate = expected;
          return [];
        }
        case 'list':
          // Nothing tracked (most traffic creates nothing through the proxy): no list to read.
          return ok && items.size > 0 && !paged(r, ex.request.url) ? judgeList(r, items, res.json) : [];
        default:
          return [];
      }
    },
  };
}

function judgeRead(
  r: Resource,
  t: Tracked | undefined,
  id: string,
  status: number,
  json: unknown,
): Problem[] {
  const ok = status >= 200 && status < 300;
  if (ok && idOf(r, json) !== undefined && String(idOf(r, json)) !== id)
    return [
      fail('state.read-returns-item', `a read of ${r.name} ${id} returned the item ${String(idOf(r, json))}`),
    ];
  if (!t) return [];
  if (t.deleted)
    return ok
      ? [fail('state.deleted-gone', `${r.name} ${id} was deleted (2xx) but a read answered ${status}`)]
      : [];
  if (status === 404)
    return [fail('state.created-readable', `${r.name} ${id} was created (2xx) but a read answered 404`)];
  const pending = t.pendingUpdate;
  if (!ok || !pending) return [];
  t.pendingUpdate = undefined;
  const record = (unwrap(json, r.envelope) ?? {}) as Record<string, unknown>;
  const stale = pending.filter((e) => !holds(e, record)).map((e) => e.path.join('.'));
  return stale.length > 0
    ? [
        fail(
          'state.update-reflected',
          `${r.name} ${id} was updated (2xx) but the next read has the old ${stale.join(', ')}`,
        ),
      ]
    : [];
}

function judgeList(r: Resource, items: Map<string, Tracked>, json: unknown): Problem[] {
  const list = r.listEnvelope ? (json as Record<string, unknown> | null)?.[r.listEnvelope.property] : json;
  if (!Array.isArray(list)) return [];
  const seen = new Set(list.map((item) => String(idOf(r, item))));
  const out: Problem[] = [];
  for (const [key, t] of items) {
    if (!key.startsWith(`${r.name} `)) continue;
    const id = key.slice(r.name.length + 1);
    if (t.awaitingList && !seen.has(id))
      out.push(
        fail(
          'state.created-listed',
          `${r.name} ${id} was created (2xx) but the next full list does not have it`,
        ),
      );
    if (t.deleted && seen.has(id))
      out.push(fail('state.deleted-gone', `${r.name} ${id} was deleted (2xx) but the list still has it`));
    t.awaitingList = false;
  }
  return out;
}

const idOf = (r: Resource, wrapped: unknown): string | undefined => recordKey(r, unwrap(wrapped, r.envelope));

/** A list read with a paging parameter is not the full list. */
function paged(r: Resource, url: string): boolean {
  const query = new URLSearchParams(url.split('?')[1] ?? '');
  return Object.values(r.paging ?? {}).some((name) => name !== undefined && query.has(name));
}

/**
 * What an update's body says the next read shows. PUT (replace) and a merge patch (RFC 7396, a JSON object:
 * `null` removes the member, an object merges into the one stored) give each member sent; a JSON Patch
 * (RFC 6902, an array of operations) gives what `add` and `replace` set and what `remove` takes away (`move`,
 * `copy` and `test` depend on the stored item, which the proxy does not know: not judged). Read-only members
 * and the id are the server's to set.
 */
function expectationsOf(
  r: Resource,
  action: 'replace' | 'patch',
  text: string,
  headers: Record<string, string>,
): Expectation[] | undefined {
  const type = (headers['content-type'] ?? '').toLowerCase();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const own = (path: string[]) =>
    !(path.length === 1 && (r.readOnly.includes(path[0] as string) || path[0] === r.idField));
  if (action === 'patch' && (Array.isArray(raw) || type.startsWith('application/json-patch+json'))) {
    if (!Array.isArray(raw)) return undefined;
    const out: Expectation[] = [];
    for (const op of raw as Array<{ op?: unknown; path?: unknown; value?: unknown }>) {
      if (typeof op?.path !== 'string' || !op.path.startsWith('/')) return undefined;
      const path = op.path
        .slice(1)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
      if (!own(path)) continue;
      // A later operation on the same member wins.
      const at = path.join('/');
      const rest = out.filter((e) => e.path.join('/') !== at);
      if (op.op === 'add' || op.op === 'replace')
        out.splice(0, out.length, ...rest, { path, value: op.value });
      else if (op.op === 'remove') out.splice(0, out.length, ...rest, { path, removed: true });
      else return undefined;
    }
    return out;
  }
  const body = unwrapObject(raw, r.envelope);
  if (!body) return undefined;
  const out: Expectation[] = [];
  const walk = (value: Record<string, unknown>, path: string[]) => {
    for (const [name, member] of Object.entries(value)) {
      const at = [...path, name];
      if (!own(at)) continue;
      if (action === 'patch' && member === null) out.push({ path: at, removed: true });
      else if (action === 'patch' && isObject(member)) walk(member, at);
      else out.push({ path: at, value: member });
    }
  };
  walk(body, []);
  return out;
}

/** Whether the read record shows `e`: the value at its path, or nothing there (null counts as removed). */
function holds(e: Expectation, record: Record<string, unknown>): boolean {
  let at: unknown = record;
  for (const name of e.path) {
    if (!isObject(at) && !Array.isArray(at)) return e.removed === true;
    at = (at as Record<string, unknown>)[name];
  }
  return e.removed ? at === undefined || at === null : same(e.value, at);
}

function unwrapObject(raw: unknown, envelope?: string): Record<string, unknown> | undefined {
  const v = unwrap(raw, envelope);
  return isObject(v) ? v : undefined;
}

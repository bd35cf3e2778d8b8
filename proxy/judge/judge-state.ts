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

interface Tracked {
  deleted: boolean;
  /** Created and not yet seen in a full list read. */
  awaitingList: boolean;
  /** Fields a 2xx PUT/PATCH sent, to be seen on the next read. */
  pendingUpdate?: Record<string, unknown>;
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
      if (!binding || !res || !binding.resource.idField) return [];
      const r = binding.resource;
      const ok = res.status >= 200 && res.status < 300;
      const itemId = r.itemParam ? route.pathParams[r.itemParam] : undefined;
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
          const body = text.length <= MAX_UPDATE_CHARS ? parseObject(text, r.envelope) : undefined;
          // An update too large to remember is not judged on the next read (and an older one is forgotten).
          if (ok && t && !t.deleted) t.pendingUpdate = body ? withoutReadOnly(r, body) : undefined;
          return [];
        }
        case 'list':
          return ok && !paged(r, ex.request.url) ? judgeList(r, items, res.json) : [];
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
      fail(
        'state.read-returns-item',
        `a read of ${r.name} ${id} returned ${r.idField} ${String(idOf(r, json))}`,
      ),
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
  const stale = Object.keys(pending).filter((f) => !same(pending[f], record[f]));
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

const idOf = (r: Resource, wrapped: unknown): unknown => {
  const json = unwrap(wrapped, r.envelope);
  return json !== null && typeof json === 'object' && r.idField
    ? (json as Record<string, unknown>)[r.idField]
    : undefined;
};

/** A list read with a paging parameter is not the full list. */
function paged(r: Resource, url: string): boolean {
  const query = new URLSearchParams(url.split('?')[1] ?? '');
  return Object.values(r.paging ?? {}).some((name) => name !== undefined && query.has(name));
}

function parseObject(text: string | undefined, envelope?: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = unwrap(JSON.parse(text ?? ''), envelope);
    return v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function withoutReadOnly(r: Resource, body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !r.readOnly.includes(k) && k !== r.idField));
}

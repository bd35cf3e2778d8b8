/** What the inspector page shows, as one JSON value: recent requests, stored records of every resource, each key's quota. */
import { describeResources } from '../../../spec/resources';
import type { NodeDeps as Deps } from '../deps';
import { keyQuotas, type KeyQuota } from '../../core/quotas';
import type { RecentRequest } from './recent';
import { heldCallers, liftedAt, type HeldView } from '../admin';

export interface InspectorData {
  /** Whether the page may offer a reset (`--no-admin` hides it), and whether it needs the admin token. */
  reset: { enabled: boolean; tokenRequired: boolean };
  recent: RecentRequest[];
  /** Stored records by resource name: the first `shown` of each. */
  records: Record<string, readonly unknown[]>;
  /** How many records each resource holds, and how many of them `records` shows. */
  counts: Record<string, { total: number; shown: number }>;
  /** What the mock inferred from the document, one line per resource. */
  resources: string[];
  keys: KeyQuota[];
  /**
   * Callers (masked key label or client address) whose latest request the mock refused with 429: limited or
   * banned. The page offers to lift every limit and ban (POST /_mock/limits/reset).
   */
  refused: Array<{ caller: string; plan: string; t: number; path: string }>;
  /** The latest callbacks sent (or refused, dropped) and their outcome, newest first (issue 33). */
  callbacks: Array<{
    t: number;
    /** `callback` or `webhook` (the name of a webhook reads `webhook NAME (EVENT)`). */
    kind: string;
    name: string;
    method: string;
    url?: string;
    outcome: string;
    detail: string;
  }>;
  /**
   * The callers the limiter holds back now (GET /_mock/limits): banned or limited, each with its end, at most
   * HELD_SHOWN of them. The page lifts one (POST /_mock/limits/lift?caller=…) or all.
   */
  held: { callers: HeldView[]; truncated: boolean };
}

/** Pure: the callers whose most recent request (newest first in `recent`) since `sinceMs` got a 429. */
export function refusedCallers(recent: readonly RecentRequest[], sinceMs = 0): InspectorData['refused'] {
  const seen = new Set<string>();
  const out: InspectorData['refused'] = [];
  for (const r of recent) {
    if (r.t < sinceMs) break;
    // The mock's own routes are never limited: an admin call says nothing about the caller's quota.
    if (r.path.startsWith('/_mock/') || seen.has(r.caller)) continue;
    seen.add(r.caller);
    if (r.status === 429) out.push({ caller: r.caller, plan: r.plan, t: r.t, path: r.path });
  }
  return out;
}

/**
 * Build the inspector's snapshot from the stores; reads only (peek never counts a request). Nothing in it
 * changes unless the state does (no timestamp of its own), so an unchanged snapshot is not sent again.
 */
export async function inspectorData(deps: Deps, shown = 100): Promise<InspectorData> {
  const records: Record<string, readonly unknown[]> = {};
  const counts: Record<string, { total: number; shown: number }> = {};
  for (const r of deps.model.resources) {
    const all = await deps.records.list(r.name);
    records[r.name] = all.length > shown ? all.slice(0, shown) : all;
    counts[r.name] = { total: all.length, shown: Math.min(shown, all.length) };
  }
  const recent = deps.ui?.recent.list() ?? [];
  return {
    reset: { enabled: deps.config.admin, tokenRequired: deps.config.adminToken !== null },
    recent,
    refused: refusedCallers(recent, liftedAt(deps)),
    held: await heldCallers(deps),
    records,
    counts,
    resources: describeResources(deps.model),
    keys: await keyQuotas(deps),
    callbacks: (deps.callbacks?.list() ?? []).slice(0, 20).map((c) => ({
      t: c.t,
      kind: c.kind,
      name: c.kind === 'webhook' ? `webhook ${c.name}${c.event ? ` (${c.event})` : ''}` : c.name,
      method: c.method,
      url: c.url,
      outcome: c.outcome,
      detail: c.reason ?? c.attempts.map((a) => a.status || a.error).join(' then '),
    })),
  };
}

/** What the inspector page shows, as one JSON value: recent requests, stored records of every resource, each key's quota. */
import { describeResources } from '../../../spec/resources';
import type { NodeDeps as Deps } from '../deps';
import { keyQuotas, type KeyQuota } from '../../core/quotas';
import type { RecentRequest } from './recent';

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
  return {
    reset: { enabled: deps.config.admin, tokenRequired: deps.config.adminToken !== null },
    recent: deps.ui?.recent.list() ?? [],
    records,
    counts,
    resources: describeResources(deps.model),
    keys: await keyQuotas(deps),
  };
}

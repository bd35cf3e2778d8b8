/** What the inspector page shows, as one JSON value: recent requests, stored records of every resource, each key's quota. */
import { describeResources } from '../../../spec/resources';
import { allRecords } from '../admin';
import type { NodeDeps as Deps } from '../deps';
import { keyQuotas, type KeyQuota } from '../../core/quotas';
import type { RecentRequest } from './recent';

export interface InspectorData {
  now: number;
  /** Whether the page may offer a reset (`--no-admin` hides it), and whether it needs the admin token. */
  reset: { enabled: boolean; tokenRequired: boolean };
  recent: RecentRequest[];
  /** Stored records by resource name. */
  records: Record<string, readonly unknown[]>;
  /** What the mock inferred from the document, one line per resource. */
  resources: string[];
  keys: KeyQuota[];
}

/** Build the inspector's snapshot from the stores; reads only (peek never counts a request). */
export async function inspectorData(deps: Deps): Promise<InspectorData> {
  const now = deps.clock.now();
  const keys = await keyQuotas(deps);
  return {
    now,
    reset: { enabled: deps.config.admin, tokenRequired: deps.config.adminToken !== null },
    recent: deps.ui?.recent.list() ?? [],
    records: await allRecords(deps),
    resources: describeResources(deps.model),
    keys,
  };
}

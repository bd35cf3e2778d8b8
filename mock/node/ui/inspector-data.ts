/** What the inspector page shows, as one JSON value: recent requests, stored categories, each key's quota. */
import type { Category } from '../../../spec/types';
import type { Deps } from '../../core/context';
import { keyQuotas, type KeyQuota } from '../../core/quotas';
import type { RecentRequest } from './recent';

export interface InspectorData {
  now: number;
  /** Whether the page may offer a reset (`--no-admin` hides it), and whether it needs the admin token. */
  reset: { enabled: boolean; tokenRequired: boolean };
  recent: RecentRequest[];
  categories: readonly Category[];
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
    categories: await deps.categories.list(),
    keys,
  };
}

/** What the inspector page shows, as one JSON value: recent requests, stored categories, each key's quota. */
import type { Category } from '../../spec/types';
import type { Deps } from '../context';
import type { RecentRequest } from './recent';

export interface KeyQuota {
  /** Masked: plan and digest prefix. The key itself is never sent to the page. */
  label: string;
  plan: string;
  windows: Array<{ window: string; limit: number; remaining: number }>;
}

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
  const keys = await Promise.all(
    deps.keyring.entries().map(async (k): Promise<KeyQuota> => {
      const used = await deps.limiter.peek(k.subject, k.windows, now);
      return {
        label: k.label,
        plan: k.plan,
        windows: k.windows.map((w, i) => ({
          window: w.name,
          limit: w.limit,
          remaining: Math.max(0, w.limit - (used[i] ?? 0)),
        })),
      };
    }),
  );
  return {
    now,
    reset: { enabled: deps.config.admin, tokenRequired: deps.config.adminToken !== null },
    recent: deps.ui?.recent.list() ?? [],
    categories: await deps.categories.list(),
    keys,
  };
}

/** Each key's remaining quota in its windows, by label (never the key); reads only, never counts a request. */
import type { Deps } from './context';

export interface KeyQuota {
  /** Masked: plan and digest prefix. */
  label: string;
  plan: string;
  windows: Array<{ window: string; limit: number; remaining: number }>;
}

/** The quota of every key in the keys file, as the admin state and the inspector show it. */
export async function keyQuotas(deps: Deps): Promise<KeyQuota[]> {
  const now = deps.clock.now();
  return Promise.all(
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
}

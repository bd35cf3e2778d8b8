/** §8: requests per minute and per day of each plan; enterprise limits come from its key entry. */
import type { WindowSpec } from './stores/types';

export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanName = (typeof PLANS)[number];

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export const PLAN_LIMITS: Record<Exclude<PlanName, 'enterprise'>, { perMinute: number; perDay: number }> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

/** The two windows every subject is counted in, minute first (it wins a tie in the headers). */
export function windowsFor(perMinute: number, perDay: number): WindowSpec[] {
  return [
    { name: 'minute', limit: perMinute, windowMs: MINUTE_MS },
    { name: 'day', limit: perDay, windowMs: DAY_MS },
  ];
}

/** §8: every caller is counted in a minute and a day window; the plans' numbers come from the keys file. */
import type { PlanLimits } from './settings';
import type { WindowSpec } from './stores/types';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** The two windows every subject is counted in, minute first (it wins a tie in the headers). */
export function windowsFor(perMinute: number, perDay: number): WindowSpec[] {
  return [
    { name: 'minute', limit: perMinute, windowMs: MINUTE_MS },
    { name: 'day', limit: perDay, windowMs: DAY_MS },
  ];
}

/** Callers without a valid key get the `free` plan's numbers, else the smallest plan's, per client address. */
export function anonymousWindows(plans: Record<string, PlanLimits>): WindowSpec[] {
  const all = Object.entries(plans);
  const chosen = plans.free ??
    all.map(([, l]) => l).sort((a, b) => a.perMinute - b.perMinute)[0] ?? { perMinute: 60, perDay: 1000 };
  return windowsFor(chosen.perMinute, chosen.perDay);
}

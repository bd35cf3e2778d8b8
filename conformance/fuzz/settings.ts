/** What a fuzz run is told: how many random cases, the seed, where failures go, the time and response budgets. */

export interface FuzzSettings {
  /** `--max-examples N`: random cases per operation. */
  maxExamples: number;
  seed: number;
  /** `--failures-dir DIR`. */
  failuresDir: string;
  /** `--max-response-time MS`: a rule per operation when set. */
  maxResponseTimeMs?: number;
  /** `--fuzz-time S`: the whole phase's budget. */
  fuzzTimeS?: number;
  /** True once the budget is spent (the clock starts at the phase's first case). */
  timeUp(): boolean;
}

export const DEFAULT_MAX_EXAMPLES = 50;

/** Settings whose `--fuzz-time` clock starts at its first question. */
export function fuzzSettings(values: Omit<FuzzSettings, 'timeUp'>): FuzzSettings {
  let deadline: number | undefined;
  return {
    ...values,
    timeUp() {
      if (values.fuzzTimeS === undefined) return false;
      deadline ??= Date.now() + values.fuzzTimeS * 1000;
      return Date.now() > deadline;
    },
  };
}

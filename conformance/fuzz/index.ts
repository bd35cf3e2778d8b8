/** The fuzz phase as the runner sees it: the rules and checks `--fuzz` or `--replay` add to a run. */
import type { LoadedSpec } from '../../spec/load';
import type { ResourceModel } from '../../spec/resources';
import type { Check } from '../execute/check-context';
import type { ConformanceOptions, Rule } from '../types';
import { DEFAULT_FAILURES_DIR, loadFailures } from './failures';
import { fuzzPlan } from './plan';
import { replayPlan } from './replay';
import { DEFAULT_MAX_EXAMPLES, fuzzSettings } from './settings';

export { DEFAULT_FAILURES_DIR } from './failures';
export { DEFAULT_MAX_EXAMPLES } from './settings';

export type FuzzPart = { ok: true; rules: Rule[]; checks: Check[] } | { ok: false; error: string };

/** What `--fuzz` (or `--replay`, which replaces the run's rules) adds; nothing without them. */
export async function fuzzPart(
  options: ConformanceOptions,
  spec: LoadedSpec,
  model: ResourceModel,
  selected: ReadonlySet<string> | null,
  seed: number,
): Promise<FuzzPart> {
  const failuresDir = options.failuresDir ?? DEFAULT_FAILURES_DIR;
  if (options.replay) {
    const loaded = await loadFailures(failuresDir);
    if (!loaded.ok) return loaded;
    return { ok: true, ...replayPlan(spec, loaded.failures) };
  }
  if (!options.fuzz) return { ok: true, rules: [], checks: [] };
  const settings = fuzzSettings({
    maxExamples: options.maxExamples ?? DEFAULT_MAX_EXAMPLES,
    seed,
    failuresDir,
    maxResponseTimeMs: options.maxResponseTimeMs,
    fuzzTimeS: options.fuzzTimeS,
  });
  return { ok: true, ...fuzzPlan(spec, model, selected, options.readOnly === true, settings) };
}

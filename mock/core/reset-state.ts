/**
 * Back to the start, for `POST /_mock/reset`, the Node server's `reset()` and the MSW entry's reset: one place
 * that knows what the engine's state is.
 */
import type { Deps } from './context';

/** Drop every record but the seed, and forget every counter and ban. */
export async function resetEngineState(deps: Deps): Promise<void> {
  await deps.records.reset(deps.seed, deps.model.resources);
  await deps.limiter.reset();
  deps.listCache.clear();
  deps.readCache.clear();
}

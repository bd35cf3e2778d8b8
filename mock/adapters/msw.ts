/**
 * MSW handlers over the engine: the same validation, auth, state and rate limits as the mock server, inside a
 * service worker in the browser or `msw/node` in a test, with no server process. `msw` (2.x or 3.x) is a peer
 * dependency of this entry point only; this module uses only what both majors share (`http.all` and the handlers'
 * `reset()` hook), so whichever `msw` the project installed is the one it runs on.
 */
import { http, type HttpHandler } from 'msw';
import { checkOptions, rule } from '../../spec/check-options';
import { resetEngineState } from '../core/reset-state';
import { createFetchHandler, FETCH_OPTION_RULES, type FetchHandlerOptions } from './fetch';

export interface MswHandlerOptions extends FetchHandlerOptions {
  /**
   * Where the API is mocked: an absolute base URL (`https://api.example.com/v1`) or a path (`/v1`, matched on any
   * origin). Default: the base path of the document's first server.
   */
  baseUrl?: string;
}

/** The handlers to spread into `setupServer(...)`, `setupWorker(...)` or `defineNetwork({ handlers })`. */
export type MswHandlers = HttpHandler[] & {
  /**
   * Back to the seed: every record but the seed dropped, every counter and ban forgotten. MSW's own
   * `resetHandlers()` calls it (MSW 3, and MSW 2 from 2.13.5, call each kept handler's `reset()`); with an older
   * MSW 2, call it yourself. Requests sent while it runs wait for it.
   */
  reset(): Promise<void>;
};

/** What MSW calls on a handler when its handlers are reset: `protected` in MSW 2's types, public in MSW 3's. */
type Resettable = { reset?: () => void };

/**
 * Chain `hook` after the handler's own `reset()` (which clears MSW's per-handler state, such as a generator
 * resolver's progress): MSW calls it on every handler it keeps through `resetHandlers()`.
 */
function afterReset(handler: HttpHandler, hook: () => void): void {
  const target = handler as unknown as Resettable;
  const own = target.reset;
  target.reset = function reset(): void {
    own?.call(handler);
    hook();
  };
}

/** Handlers answering every request under the base URL from the engine (one shared state for all of them). */
export async function createMswHandlers(options: MswHandlerOptions): Promise<MswHandlers> {
  checkOptions('createMswHandlers', options, { ...FETCH_OPTION_RULES, baseUrl: rule.string }, ['document']);
  const { baseUrl, ...engine } = options;
  const handle = await createFetchHandler(engine);
  const base = (baseUrl ?? handle.deps.spec.basePath).replace(/\/+$/, '');
  const pattern = /^[a-z]+:\/\//i.test(base) ? base : `*${base}`;

  // A reset started by MSW cannot be awaited (its resetHandlers() is synchronous): requests wait for it instead.
  let settled: Promise<void> = Promise.resolve();
  let queued: Promise<void> | null = null;
  const reset = (): Promise<void> => {
    // Both handlers are reset by one resetHandlers() call: one reset of the engine serves them.
    queued ??= settled.then(async () => {
      queued = null;
      await resetEngineState(handle.deps);
    });
    const run = queued;
    settled = run.catch(() => undefined);
    return run;
  };
  const resetFromMsw = (): void => {
    reset().catch((error: unknown) =>
      handle.deps.log.event('error', 'msw: resetting the mock state failed', { error: String(error) }),
    );
  };

  const resolver = async ({ request }: { request: Request }): Promise<Response> => {
    await settled;
    return handle(request);
  };
  const handlers = [http.all(`${pattern}/*`, resolver), http.all(pattern || '*/', resolver)];
  for (const handler of handlers) afterReset(handler, resetFromMsw);
  return Object.assign(handlers, { reset });
}

/**
 * MSW handlers over the engine: the same validation, auth, state and rate limits as the mock server, inside a
 * service worker in the browser or `msw/node` in a test, with no server process. `msw` (2.x) is a peer
 * dependency of this entry point only.
 */
import { http, type HttpHandler } from 'msw';
import { checkOptions, rule } from '../../spec/check-options';
import { createFetchHandler, FETCH_OPTION_RULES, type FetchHandlerOptions } from './fetch';

export interface MswHandlerOptions extends FetchHandlerOptions {
  /**
   * Where the API is mocked: an absolute base URL (`https://api.example.com/v1`) or a path (`/v1`, matched on any
   * origin). Default: the base path of the document's first server.
   */
  baseUrl?: string;
}

/** Handlers answering every request under the base URL from the engine (one shared state for all of them). */
export async function createMswHandlers(options: MswHandlerOptions): Promise<HttpHandler[]> {
  checkOptions('createMswHandlers', options, { ...FETCH_OPTION_RULES, baseUrl: rule.string }, ['document']);
  const { baseUrl, ...engine } = options;
  const handle = await createFetchHandler(engine);
  const base = (baseUrl ?? handle.deps.spec.basePath).replace(/\/+$/, '');
  const pattern = /^[a-z]+:\/\//i.test(base) ? base : `*${base}`;
  const resolver = ({ request }: { request: Request }) => handle(request);
  return [http.all(`${pattern}/*`, resolver), http.all(pattern || '*/', resolver)];
}

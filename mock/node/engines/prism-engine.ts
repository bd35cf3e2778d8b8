/**
 * `--example-engine prism`: answers for the operations whose payloads are not published, from
 * the spec's examples, by @stoplight/prism-http 5.12 (the newest release that supports Node 20). Prism only mocks: our own router,
 * auth, validation and limiter sit in front of it, so its request validator never sees raw input
 * (a malformed percent-encoding kills a Prism process; here it never reaches Prism).
 */
import type { IHttpConfig, IHttpRequest } from '@stoplight/prism-http';
import type { ExampleEngine } from '../../core/engines/types';

const CONFIG: IHttpConfig = {
  mock: { dynamic: false },
  checkSecurity: false, // auth is ours (§5), decided before Prism is called
  validateRequest: false, // validation is ours, with the spec's compiled validators
  validateResponse: false,
  errors: false,
  upstreamProxy: undefined,
  isProxy: false,
};

/**
 * The Prism-backed engine, built on first use (or by `warm()` right after start): loading Prism takes
 * longer than the rest of the start-up, and the resource endpoints never need it.
 */
export function createLazyPrismEngine(specPath: string): ExampleEngine & { warm(): Promise<void> } {
  let ready: Promise<ExampleEngine> | null = null;
  const get = (): Promise<ExampleEngine> => (ready ??= createPrismEngine(specPath));
  const engine: ExampleEngine = async (request) => (await get())(request);
  return Object.assign(engine, { warm: async () => void (await get()) });
}

/** Build the Prism-backed engine: the spec is parsed here once, never per request. */
export async function createPrismEngine(specPath: string): Promise<ExampleEngine> {
  const { createInstance, getHttpOperationsFromSpec } = await import('@stoplight/prism-http');
  const { default: pino } = await import('pino');
  const operations = await getHttpOperationsFromSpec(specPath);
  const prism = createInstance(CONFIG, { logger: pino({ enabled: false, customLevels: { success: 32 } }) });
  return async ({ method, path, preferStatus }) => {
    const input: IHttpRequest = { method: method.toLowerCase() as IHttpRequest['method'], url: { path } };
    const config: IHttpConfig = { ...CONFIG, mock: { dynamic: false, code: preferStatus } };
    const result = await prism.request(input, operations, config)();
    if (result._tag === 'Left') return { error: result.left.message };
    const { statusCode, body, headers } = result.right.output;
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers ?? {})) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
    return { status: statusCode, body, headers: flat };
  };
}

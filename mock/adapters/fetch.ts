/**
 * The fetch adapter: `(request: Request) => Promise<Response>` over the engine, for tests, service workers,
 * edge runtimes and MSW. The document is passed in as an object (already loaded: no file is read here); local
 * `$ref`s are resolved in memory. No node:* module.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec, type CompiledSpec } from '../../spec/compile';
import { dereference } from '../../spec/deref';
import type { BodyRead, MockRequest } from '../core/context';
import { checkOptions, rule } from '../../spec/check-options';
import { ENGINE_OPTION_RULES } from '../core/check-options';
import { buildDeps, handleRequest, type EngineOptions } from '../core/engine';

/** The options createFetchHandler takes, each with what it must be. */
export const FETCH_OPTION_RULES = { ...ENGINE_OPTION_RULES, remoteAddress: rule.nonEmptyString };

export interface FetchHandlerOptions extends Omit<EngineOptions, 'document'> {
  /** The OpenAPI 3.1 document as an object (parsed JSON or YAML), or one already compiled. */
  document: OpenAPIV3_1.Document | CompiledSpec;
  /** The client address the rate limiter counts anonymous callers by (default 127.0.0.1). */
  remoteAddress?: string;
}

export type FetchHandler = ((request: Request) => Promise<Response>) & {
  /** The engine's dependencies (stores, keys, document), for tests and tools. */
  readonly deps: Awaited<ReturnType<typeof buildDeps>>;
};

const isCompiled = (d: FetchHandlerOptions['document']): d is CompiledSpec =>
  'operations' in d && 'byId' in d;

async function readLimited(request: Request, limit: number): Promise<BodyRead | null> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) return { bytes: new Uint8Array(0), tooLarge: true };
  try {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.length > limit ? { bytes: new Uint8Array(0), tooLarge: true } : { bytes, tooLarge: false };
  } catch {
    return null;
  }
}

/** Build a fetch handler over the engine; rejects with a message naming the problem in the document, keys or seed. */
export async function createFetchHandler(options: FetchHandlerOptions): Promise<FetchHandler> {
  checkOptions('createFetchHandler', options, FETCH_OPTION_RULES, ['document']);
  const { document, remoteAddress = '127.0.0.1', ...rest } = options;
  const spec = isCompiled(document) ? document : compileSpec('document', dereference(document), false);
  const deps = await buildDeps({ ...rest, document: spec, allowShortKeys: rest.allowShortKeys ?? true });
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const req: MockRequest = {
      method: request.method,
      path: url.pathname,
      query: url.search.slice(1),
      headers,
      remoteAddress,
      readBody: (limit) => readLimited(request, limit),
    };
    const result = await handleRequest(req, deps);
    const out = result.response;
    const responseHeaders = new Headers();
    for (const [k, v] of Object.entries(out.headers)) {
      // A Response computes its own length; Connection is hop-by-hop.
      if (k !== 'Content-Length' && k !== 'Connection') responseHeaders.set(k, String(v));
    }
    const noBody =
      out.status === 204 || out.status === 304 || request.method === 'HEAD' || out.body.length === 0;
    return new Response(noBody ? null : (out.body as unknown as ConstructorParameters<typeof Response>[0]), {
      status: out.status,
      headers: responseHeaders,
    });
  };
  return Object.assign(handler, { deps });
}

/**
 * The fetch adapter: `(request: Request) => Promise<Response>` over the engine, for tests, service workers,
 * edge runtimes and MSW. The document is passed in as an object (already loaded: no file is read here); local
 * `$ref`s are resolved in memory. No node:* module.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec, type CompiledSpec } from '../../spec/compile';
import { dereference } from '../../spec/deref';
import type { BodyRead, EventSink, MockRequest, Reply } from '../core/context';
import { checkOptions, rule } from '../../spec/check-options';
import { ENGINE_OPTION_RULES } from '../core/check-options';
import { buildDeps, handleRequest, type EngineOptions } from '../core/engine';

/** The options createFetchHandler takes, each with what it must be. */
export const FETCH_OPTION_RULES = { ...ENGINE_OPTION_RULES, remoteAddress: rule.nonEmptyString };

export interface FetchHandlerOptions extends Omit<EngineOptions, 'document'> {
  /** The OpenAPI 3.1 (or 3.2) document as an object (parsed JSON or YAML), or one already compiled. */
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

/**
 * Compile a document given as an object. Only 3.1 is this entry's to read (the upgrader needs Node): a Swagger
 * 2.0 document (bodies under `definitions`, no `content`) would be served unchecked, and a 3.0 one that is not
 * also valid 3.1 fails deep in ajv; both are a TypeError naming the option and the way out.
 */
function compileDocument(entry: string, document: OpenAPIV3_1.Document): CompiledSpec {
  const raw = document as unknown as { openapi?: unknown; swagger?: unknown };
  const version =
    typeof raw.openapi === 'string' ? `OpenAPI ${raw.openapi}` : `Swagger ${String(raw.swagger)}`;
  const advice =
    'convert it to 3.1, or serve the file with the mock command (`--spec FILE`), which upgrades it at load';
  if (raw.openapi === undefined)
    throw new TypeError(`${entry}: options.document is ${version}; this entry reads OpenAPI 3.1: ${advice}`);
  // 3.2 adds to 3.1 (QUERY, additionalOperations, querystring): read as it is (issue 33).
  const readable = typeof raw.openapi === 'string' && /^3\.[12]\./.test(raw.openapi);
  try {
    // Validators compile on first use: a document that is not 3.1 has its schemas checked now instead.
    const notThreeOne = typeof raw.openapi !== 'string' || !raw.openapi.startsWith('3.1');
    return compileSpec('document', dereference(document), notThreeOne);
  } catch (err) {
    if (readable) throw err;
    throw new TypeError(
      `${entry}: options.document is ${version} and cannot be read as 3.1 (${(err as Error).message}): ${advice}`,
    );
  }
}

/** A streamed reply as a Response body: each write a chunk, as it comes; a cancel is the client going away. */
function readableOf(stream: NonNullable<Reply['stream']>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const closers: (() => void)[] = [];
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const sink: EventSink = {
        write(chunk) {
          if (!done) controller.enqueue(encoder.encode(chunk));
          return true;
        },
        end() {
          if (!done) controller.close();
          done = true;
        },
        on(event, listener) {
          if (event === 'close') closers.push(listener);
        },
      };
      stream(sink);
    },
    cancel() {
      done = true;
      for (const close of closers) close();
    },
  });
}

/** Build a fetch handler over the engine; rejects with a message naming the problem in the document, keys or seed. */
export async function createFetchHandler(options: FetchHandlerOptions): Promise<FetchHandler> {
  checkOptions('createFetchHandler', options, FETCH_OPTION_RULES, ['document']);
  const { document, remoteAddress = '127.0.0.1', ...rest } = options;
  const spec = isCompiled(document) ? document : compileDocument('createFetchHandler', document);
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
    if (result.delayMs) await deps.sleep(result.delayMs);
    // An injected reset: a network error for the caller (fetch rejects), as a dropped connection gives.
    if (result.reset) return Response.error();
    const out = result.response;
    const responseHeaders = new Headers();
    for (const [k, v] of Object.entries(out.headers)) {
      // A Response computes its own length; Connection is hop-by-hop.
      if (k !== 'Content-Length' && k !== 'Connection') responseHeaders.set(k, String(v));
    }
    const noBody = out.status === 204 || out.status === 304 || request.method === 'HEAD';
    if (result.stream && !noBody)
      return new Response(readableOf(result.stream), { status: out.status, headers: responseHeaders });
    return new Response(
      noBody || out.body.length === 0
        ? null
        : (out.body as unknown as ConstructorParameters<typeof Response>[0]),
      {
        status: out.status,
        headers: responseHeaders,
      },
    );
  };
  return Object.assign(handler, { deps });
}

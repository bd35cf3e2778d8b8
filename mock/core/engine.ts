/**
 * The engine as a value: a loaded document, keys, seed, stores and clock in; a function from a request (plain
 * data) to a response (status, headers, bytes) out. Every transport (node:http, fetch, MSW) is a thin adapter
 * over this. Imports no node:* module.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec, type CompiledSpec } from '../../spec/compile';
import { inferResources } from '../../spec/resources';
import { idRandom } from '../../spec/random';
import { compileBodyChecks } from './body-check';
import type { Clock, Ctx, Deps, MockRequest, Reply } from './context';
import { credentialReaders } from './credentials';
import { specExampleEngine } from './engines/spec-examples';
import type { ExampleEngine } from './engines/types';
import { createErrorShaper } from '../../spec/error-shape';
import { decideCallbacks, type CallbackSend, type CallbackSource } from './callbacks';
import { decideStateWebhooks, triggered, webhookCatalogue } from './webhooks';
import { parseQuery } from './query';
import { faultRateProblem, parseLatency, seededRandom } from './chaos';
import { checkKeys, createKeyring, type KeyEntry, type KeysFile } from './keys';
import { silentLogger, type Logger } from './log';
import { PIPELINE, runPipeline, type Pipeline, type PipelineResult } from './pipeline';
import { bindOperations } from './bound';
import { anonymousWindows } from './plans';
import { checkSeed } from './seed';
import { ENGINE_DEFAULTS, type MockConfig } from './settings';
import { toHttpResponse, type HttpResponse } from './stages/respond';
import { createMemoryLimiterStore } from './stores/memory-limiter-store';
import { createMemoryRecordStore } from './stores/memory-record-store';
import type { LimiterStore, RecordStore, SeedData } from './stores/types';

export interface EngineOptions {
  /** The OpenAPI 3.1 document, already read, validated and dereferenced (or compiled). */
  document: OpenAPIV3_1.Document | CompiledSpec;
  /** The valid credentials: a keys list, or a whole keys file (with its plans). */
  keys?: readonly KeyEntry[] | KeysFile;
  /** Seed records by resource name (`{ "books": [ … ] }`). */
  seed?: SeedData;
  clock?: Clock;
  records?: RecordStore;
  limiter?: LimiterStore;
  log?: Logger;
  engine?: ExampleEngine;
  /** Settings; anything left out takes the engine's default. */
  config?: Partial<MockConfig>;
  /** Accept keys shorter than 16 characters (demo keys, tests). */
  allowShortKeys?: boolean;
  /** Waits `ms`: how the adapters hold a delayed answer back (default: a timer). */
  sleep?: (ms: number) => Promise<void>;
  /** Takes the callbacks decided after each accepted request, to send them (none: callbacks are not sent). */
  outbox?: (sends: CallbackSend[]) => void;
}

/** The default sleeper: a timer, which holds no worker while it waits. */
export const timerSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Why the latency and fault settings cannot be used, or undefined. */
function chaosProblem(config: MockConfig, spec: CompiledSpec): string | undefined {
  const latency = config.latency === null ? undefined : parseLatency(config.latency);
  if (latency && 'problem' in latency) return latency.problem;
  const rate = faultRateProblem(config.faults);
  if (rate) return rate;
  for (const [id, own] of Object.entries(config.operationChaos)) {
    if (!spec.byId.has(id)) return `operations.${id}: the document has no operation ${id}`;
    const l = own.latency === undefined ? undefined : parseLatency(own.latency);
    if (l && 'problem' in l) return `operations.${id}: ${l.problem}`;
    const r = own.faults === undefined ? undefined : faultRateProblem(own.faults);
    if (r) return `operations.${id}: ${r}`;
  }
  return undefined;
}

export const systemClock: Clock = { now: () => Date.now() };

const isCompiled = (d: EngineOptions['document']): d is CompiledSpec => 'operations' in d && 'byId' in d;

/** Merge settings over the engine defaults, the nested policy included. */
export function settingsWith(overrides: Partial<MockConfig> = {}): MockConfig {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return Object.freeze({
    ...ENGINE_DEFAULTS,
    ...defined,
    policy: { ...ENGINE_DEFAULTS.policy, ...overrides.policy },
  });
}

/** Build the engine's dependencies; throws an Error naming the problem when the document, keys or seed are bad. */
export async function buildDeps(options: EngineOptions): Promise<Deps> {
  const config = settingsWith(options.config);
  const spec = isCompiled(options.document)
    ? options.document
    : compileSpec('document', options.document, false);
  if (config.basePath !== null) spec.basePath = config.basePath.replace(/\/+$/, '');
  const chaos = chaosProblem(config, spec);
  if (chaos) throw new Error(`settings: ${chaos}`);
  const inferred = inferResources(spec);
  if (!inferred.ok) throw new Error(`resources: ${inferred.error}`);
  const model = inferred.model;
  const hooks = webhookCatalogue(spec.document, model, config.webhooks).problems;
  if (hooks.length) throw new Error(`settings: ${hooks.join('; ')}`);
  const rawKeys = options.keys ?? [];
  const file: KeysFile = Array.isArray(rawKeys) ? { keys: [...rawKeys] } : (rawKeys as KeysFile);
  const checked = checkKeys(file, { allowShortKeys: options.allowShortKeys, defaultPlans: config.plans });
  if (!checked.ok) throw new Error(`keys: ${checked.error}`);
  const plans = checked.plans;
  const bodies = compileBodyChecks(spec, model, config.policy);
  const seed = options.seed ?? {};
  const seedProblem = checkSeed(seed, model, spec);
  if (seedProblem) throw new Error(`seed: ${seedProblem}`);
  const records = options.records ?? createMemoryRecordStore(idRandom(config.randomSeed));
  if (!options.records)
    await records.reset(
      seed,
      model.resources.map((r) => ({ name: r.name, idField: r.idField, idType: r.idType, idForm: r.idForm })),
    );
  return {
    config,
    spec,
    model,
    keyring: await createKeyring(checked.keys, plans),
    records,
    limiter: options.limiter ?? createMemoryLimiterStore(),
    engine: options.engine ?? specExampleEngine,
    clock: options.clock ?? systemClock,
    seed,
    log: options.log ?? silentLogger,
    anonymous: anonymousWindows(plans),
    credentials: credentialReaders(spec.securitySchemes),
    bodies,
    bound: bindOperations(spec, model, bodies, config),
    errors: createErrorShaper(spec, idRandom(config.randomSeed + 1)),
    listCache: new Map(),
    readCache: new Map(),
    random: seededRandom(config.randomSeed),
    sleep: options.sleep ?? timerSleep,
    outbox: options.outbox,
  };
}

export interface EngineResult {
  response: HttpResponse;
  /** A streamed body: the adapter hands over its open response. */
  stream?: Reply['stream'];
  /** The client went away before its body was read: nothing to send. */
  aborted: boolean;
  /** Who called (for the request log): a label, never a key. */
  caller: string;
  /** A stage threw (a bug): the adapter logs it; the response is already a 500 error. */
  error?: unknown;
  /** Hold the answer back this long first (an injected delay). */
  delayMs?: number;
  /** An injected fault: reset the connection instead of answering. */
  reset?: boolean;
  /** What was injected (`delay 200ms, fault 503`), for the log and the inspector. */
  injected?: string;
}

/**
 * Answer one request with the deps serving now (a --watch reload swaps `source.current`). The result itself
 * when every stage answered at once (stores in memory), else a promise of it: `await` takes either.
 */
export function handleRequest<D extends Deps>(
  req: MockRequest,
  source: D | { current: D },
  pipeline: Pipeline<D> = PIPELINE,
): EngineResult | Promise<EngineResult> {
  const deps = 'current' in source ? source.current : source;
  const ran = runPipeline(req, deps, pipeline);
  return ran instanceof Promise ? ran.then((r) => engineResult(r, deps)) : engineResult(ran, deps);
}

/** The answer's body as a value (callbacks read `$response.body`). */
function bodyValue(reply: Reply): unknown {
  if (reply.body !== undefined || !reply.raw) return reply.body;
  try {
    return JSON.parse(new TextDecoder().decode(reply.raw));
  } catch {
    return undefined;
  }
}

/**
 * After an accepted request (a 2xx the document's operation answered): its callbacks, and the webhooks of the state
 * change it made, go to the outbox. An answer from the document alone (`Prefer: example=`, `dynamic=`, `code=`)
 * stored nothing and changed nothing: it sends neither a callback nor a webhook (docs/mock-callbacks-webhooks.md).
 */
function queueCallbacks(ctx: Ctx, reply: Reply, response: HttpResponse, deps: Deps): void {
  const { operation, bound } = ctx;
  if (!deps.outbox || !operation || !bound || reply.status < 200 || reply.status > 299 || reply.reset) return;
  const fromDocument =
    ctx.preferExample !== undefined ||
    ctx.preferDynamic === true ||
    (ctx.preferStatus !== undefined && ctx.preferStatus !== bound.successStatus);
  if (fromDocument) return;
  const { hasCallbacks, binding } = bound;
  const changed = binding !== undefined && triggered(deps, binding).length > 0;
  if (!hasCallbacks && !changed) return;
  const query = ctx.req.query;
  const source: CallbackSource = {
    method: ctx.req.method,
    url: query ? `${ctx.req.path}?${query}` : ctx.req.path,
    headers: ctx.req.headers,
    query: ctx.query ?? parseQuery(query),
    params: ctx.params ?? {},
    requestBody: ctx.input,
    status: reply.status,
    responseBody: bodyValue(reply),
    responseHeaders: response.headers,
  };
  const auth = { schemes: deps.spec.securitySchemes, credentials: deps.config.callbackCredentials };
  const sends = [
    ...(hasCallbacks ? decideCallbacks(deps.spec.document, operation, source, auth) : []),
    ...(changed && binding ? decideStateWebhooks(deps, binding, operation.operationId, source) : []),
  ];
  if (sends.length) deps.outbox(sends);
}

function engineResult(ran: PipelineResult, deps: Deps): EngineResult {
  const { reply, ctx, error } = ran;
  const response = toHttpResponse(reply, ctx, deps);
  queueCallbacks(ctx, reply, response, deps);
  return {
    response,
    stream: reply.stream,
    aborted: reply.status === 499,
    caller: ctx.identity?.label ?? 'unknown',
    error,
    delayMs: ctx.delayMs,
    reset: reply.reset,
    injected: ctx.injected?.join(', '),
  };
}

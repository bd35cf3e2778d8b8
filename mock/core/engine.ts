/**
 * The engine as a value: a loaded document, keys, seed, stores and clock in; a function from a request (plain
 * data) to a response (status, headers, bytes) out. Every transport (node:http, fetch, MSW) is a thin adapter
 * over this. Imports no node:* module.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { compileSpec, type CompiledSpec } from '../../spec/compile';
import { inferResources } from '../../spec/resources';
import { compileBodyChecks } from './body-check';
import type { Clock, Deps, MockRequest, Reply, Stage } from './context';
import { credentialReaders } from './credentials';
import { specExampleEngine } from './engines/spec-examples';
import type { ExampleEngine } from './engines/types';
import { createErrorShaper } from '../../spec/error-shape';
import { checkKeys, createKeyring, type KeyEntry, type KeysFile } from './keys';
import { silentLogger, type Logger } from './log';
import { runPipeline, STAGES, type PipelineResult } from './pipeline';
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
  const inferred = inferResources(spec);
  if (!inferred.ok) throw new Error(`resources: ${inferred.error}`);
  const model = inferred.model;
  const rawKeys = options.keys ?? [];
  const file: KeysFile = Array.isArray(rawKeys) ? { keys: [...rawKeys] } : (rawKeys as KeysFile);
  const checked = checkKeys(file, { allowShortKeys: options.allowShortKeys, defaultPlans: config.plans });
  if (!checked.ok) throw new Error(`keys: ${checked.error}`);
  const plans = checked.plans;
  const bodies = compileBodyChecks(spec, model, config.policy);
  const seed = options.seed ?? {};
  const seedProblem = checkSeed(seed, model, spec);
  if (seedProblem) throw new Error(`seed: ${seedProblem}`);
  const records = options.records ?? createMemoryRecordStore();
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
    errors: createErrorShaper(spec),
    listCache: new Map(),
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
}

/**
 * Answer one request with the deps serving now (a --watch reload swaps `source.current`). The result itself
 * when every stage answered at once (stores in memory), else a promise of it: `await` takes either.
 */
export function handleRequest<D extends Deps>(
  req: MockRequest,
  source: D | { current: D },
  stages: readonly Stage<D>[] = STAGES as readonly Stage<D>[],
): EngineResult | Promise<EngineResult> {
  const deps = 'current' in source ? source.current : source;
  const ran = runPipeline(req, deps, stages);
  return ran instanceof Promise ? ran.then((r) => engineResult(r, deps)) : engineResult(ran, deps);
}

function engineResult(ran: PipelineResult, deps: Deps): EngineResult {
  const { reply, ctx, error } = ran;
  return {
    response: toHttpResponse(reply, ctx, deps),
    stream: reply.stream,
    aborted: reply.status === 499,
    caller: ctx.identity?.label ?? 'unknown',
    error,
  };
}

/** The one place that knows the order of the stages: load -> generate -> send -> verdict -> report. */
import path from 'node:path';
import { loadSpec, type LoadedSpec, type OperationSpec } from '../spec/load';
import { projectRoot } from '../spec/paths';
import { inferResources, type ResourceModel } from '../spec/resources';
import { createTally, type Tally } from '../spec/report/aggregate';
import { computeCoverage } from '../spec/report/coverage';
import { rateLimitFieldsJudge } from './verdict/ratelimit-ietf';
import { responseChecker } from '../spec/http/response-checks';
import { chooseProbe, reachability } from './probes/probe';
import { cleanUp } from './lifecycle/cleanup';
import { createClient, type Client } from './send/client';
import { seenValues } from './send/seen-values';
import { seededRandom, type Check, type RunContext } from './send/check-context';
import { generateRules } from './generated-rules';
import { loadScenarios, type ScenariosResult } from './load/load-scenarios';
import { DEFAULT_FAILURES_DIR } from './fuzz/failures';
import { checkResponseTimes } from './verdict/response-time';
import { withReasons } from './verdict/unreached';
import { selectOperations } from './load/select-operations';
import { planRun, type Phases } from './run-plan';
import type { ConformanceOptions, Exchange, Finding, Report } from './types';
import { checkOptions, rule, type OptionRule } from '../spec/check-options';
import { createReceiving, startReceiver, type CallbackReceiving } from './send/callback-receiver';
import { undocumentedFindings } from './callbacks/check';

/** `--callbacks-wait-ms` when not given: how long each documented callback has to arrive. */
export const DEFAULT_CALLBACKS_WAIT_MS = 3000;

export const DEFAULT_SCENARIOS_DIR = path.join(projectRoot(), 'conformance', 'scenarios');

/** The run itself could not happen (unreachable target, bad spec, bad scenario file, bad options): exit 2. */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
}

/** A report and every exchange behind it (for comparing two runs: `--compare`). */
export interface DetailedRun {
  report: Report;
  exchanges: Exchange[];
}

/** Like runConformance, with every exchange kept (a run's memory then grows with its exchanges). */
export async function runConformanceDetailed(options: ConformanceOptions): Promise<DetailedRun> {
  const exchanges: Exchange[] = [];
  const report = await runConformance({
    ...options,
    onExchange: (exchange) => {
      exchanges.push(exchange);
      options.onExchange?.(exchange);
    },
  });
  return { report, exchanges };
}

/**
 * The run's inputs (the document, its resources, the selection, the seed) and its plan: the phases' own rule and
 * check lists stay in this function, so that once the plan is made only the plan holds the checks.
 */
async function prepare(options: ConformanceOptions, started: number) {
  validateOptions(options);
  const loaded = await loadSpec(options.specFile);
  if (!loaded.ok) throw new ConformanceError(loaded.error);
  const spec = loaded.spec;
  validateTarget(options.target, spec);
  validateKey(options.key ?? '', spec);
  const inferred = inferResources(spec);
  if (!inferred.ok)
    throw new ConformanceError(`cannot infer the resources of the document: ${inferred.error}`);
  const model = inferred.model;
  const chosen = selectOperations(spec, options);
  if (!chosen.ok) throw new ConformanceError(chosen.error);
  const generated = generateRules(spec, model, chosen.ids);
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  // The fuzz phase and --replay are loaded only when asked for (a run holds its modules to the end).
  const fuzz = options.fuzz
    ? (await import('./fuzz')).fuzzPhase(spec, model, chosen.ids, {
        maxExamples: options.maxExamples ?? 50,
        deadline: started + (options.fuzzTimeS ?? 300) * 1000,
        failuresDir: failuresDirOf(options),
        target: options.target,
        seed,
      })
    : { rules: [], checks: [] };
  const scenarios = await scenariosOf(options, spec);
  if (!scenarios.ok) throw new ConformanceError(scenarios.error);
  const replay = options.replay
    ? (await import('./fuzz/replay')).replayPhase(spec, failuresDirOf(options))
    : undefined;
  const planned = planRun(options, { spec, chosen: chosen.ids, generated, fuzz, replay, scenarios });
  if (!planned.ok) throw new ConformanceError(planned.error);
  return { spec, model, chosen: chosen.ids, seed, plan: planned.plan };
}

/**
 * Run every selected rule against `options.target` and return the report. Throws ConformanceError. Each exchange
 * is judged as it arrives and let go: the run keeps per-rule counts, a few failures per rule as evidence and the
 * coverage counts, so its memory does not grow with the number of requests; each check is let go once it has run
 * (the plan's phases are drained, and nothing else holds the checks).
 */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const started = Date.now();
  const { spec, model, chosen, seed, plan } = await prepare(options, started);
  const traffic = trafficJudge(spec, options);
  const runPrefix = options.runPrefix ?? `conformance-${started.toString(36)}`;
  const concurrency = options.concurrency ?? 2;
  const readOnly = options.readOnly === true;
  const seen = seenValues();
  const learnFrom = (exchange: Exchange) => {
    const op = exchange.operationId ? spec.byId.get(exchange.operationId) : undefined;
    const status = exchange.response?.status ?? 0;
    if (op && exchange.response) seen.observe(op.path, status < 300 ? exchange.response.json : undefined);
  };
  const client = createClient({
    target: options.target,
    key: options.key,
    quotaKey: options.quotaKey,
    spec,
    model,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxWaitMs: options.maxWaitMs ?? 30_000,
    reserve: concurrency,
    readOnly,
    fetch: options.fetch,
    onWait: (ms, why) => options.onProgress?.({ type: 'wait', ms, why }),
    onExchange: (exchange) => {
      learnFrom(exchange);
      traffic.observe(exchange);
    },
  });
  const probe = chooseProbe(spec);
  const receiving = await receiverOf(options);
  try {
    const ctx: RunContext = {
      // The document-wide checks (auth per scheme, undocumented methods, …) see the selected operations only.
      spec: chosen ? scopedSpec(spec, withResources(chosen, model)) : spec,
      client,
      runPrefix,
      random: seededRandom(seed),
      hasQuotaKey: !!options.quotaKey,
      model,
      readOnly,
      probe,
      seen,
      ...(receiving ? { callbacks: receiving } : {}),
    };

    await checkReachable(client, spec, probe.op, options);

    const { first, queue, last } = plan.phases;
    options.onProgress?.({
      type: 'start',
      seed,
      runPrefix,
      checks: first.length + queue.length + last.length,
    });
    const findings = await executeChecks(plan.phases, ctx, concurrency, options);
    for (const f of await undocumentedFindings(receiving)) findings.add(f);
    const cleanup = await cleanUp(client, readOnly, spec);
    traffic.finish(plan.rules.some((r) => r.tags.includes('quota')));
    // The checks' own findings come first, as they always have: a rule's evidence is theirs before the traffic's.
    const rules = findings.results(plan.rules, traffic.tally);
    const count = (s: string) => rules.filter((r) => r.status === s).length;
    const report: Report = {
      target: options.target,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      summary: { pass: count('pass'), fail: count('fail'), skip: count('skip') },
      rules,
      // Each pair not observed says why (one place: verdict/unreached.ts).
      coverage: withReasons(
        spec,
        computeCoverage(spec, [], traffic.coverage).filter((c) => !chosen || chosen.has(c.operationId)),
        { model, rules, readOnly, answered: answeredOperations(traffic.coverage) },
      ),
      cleanup,
      ...(options.require?.length ? { required: plan.required } : {}),
    };
    return report;
  } finally {
    await receiving?.receiver.close();
  }
}

/** `--callbacks-listen`: the receiver, started on 127.0.0.1 (its URL reported as progress); else undefined. */
async function receiverOf(options: ConformanceOptions): Promise<CallbackReceiving | undefined> {
  if (options.callbacksListen === undefined) return undefined;
  try {
    const receiver = await startReceiver(options.callbacksListen);
    options.onProgress?.({ type: 'callbacks', url: receiver.origin });
    return createReceiving(receiver, options.callbacksWaitMs ?? DEFAULT_CALLBACKS_WAIT_MS);
  } catch (err) {
    throw new ConformanceError(
      `--callbacks-listen ${options.callbacksListen}: cannot listen on 127.0.0.1: ${(err as Error).message}`,
    );
  }
}

/**
 * The rules judged from the traffic itself (every response, the RateLimit fields, `--max-response-time`) and the
 * coverage counts, fed one exchange at a time; the exchange goes on to `options.onExchange` and is not kept.
 */
function trafficJudge(spec: LoadedSpec, options: ConformanceOptions) {
  const tally = createTally();
  const coverage = new Map<string, number>();
  const responses = responseChecker(spec);
  const fields = rateLimitFieldsJudge();
  const maxMs = options.maxResponseTimeMs;
  const add = (found: readonly Finding[]) => {
    for (const f of found) tally.add(f);
  };
  return {
    tally,
    coverage,
    observe(exchange: Exchange): void {
      if (exchange.operationId && exchange.response) {
        const key = `${exchange.operationId} ${exchange.response.status}`;
        coverage.set(key, (coverage.get(key) ?? 0) + 1);
      }
      add(responses(exchange));
      add(fields.observe(exchange));
      if (maxMs !== undefined) add(checkResponseTimes([exchange], maxMs));
      options.onExchange?.(exchange);
    },
    finish(quotaRun: boolean): void {
      add(fields.finish(quotaRun));
    },
  };
}

/** The operations with an answer of any status, from the traffic's `<operationId> <status>` counts. */
const answeredOperations = (counts: ReadonlyMap<string, number>): Set<string> =>
  new Set([...counts.keys()].map((k) => k.slice(0, k.lastIndexOf(' '))));

const failuresDirOf = (options: ConformanceOptions): string => options.failuresDir ?? DEFAULT_FAILURES_DIR;

/** `ids` and every operation of a resource one of them belongs to (a lifecycle needs its create and delete). */
function withResources(ids: ReadonlySet<string>, model: ResourceModel): Set<string> {
  const out = new Set(ids);
  for (const r of model.resources) {
    const ops = Object.values(r.operations).filter((id): id is string => id !== undefined);
    if (ops.some((id) => ids.has(id))) for (const id of ops) out.add(id);
  }
  return out;
}

/** `spec` as if it had only the operations in `ids` (its getters kept: it is the prototype). */
function scopedSpec(spec: LoadedSpec, ids: ReadonlySet<string>): LoadedSpec {
  const operations = spec.operations.filter((op) => ids.has(op.operationId));
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return Object.assign(Object.create(spec) as LoadedSpec, { operations, byId });
}

async function scenariosOf(options: ConformanceOptions, spec: LoadedSpec): Promise<ScenariosResult> {
  if (options.scenariosDir === 'none') return { ok: true, scenarios: [], rules: [] };
  return loadScenarios(
    options.scenariosDir ?? DEFAULT_SCENARIOS_DIR,
    new Set(spec.schemas.keys()),
    new Set(spec.byId.keys()),
  );
}

/** What each option of runConformance must be (a wrong one is a TypeError naming it). */
const OPTION_RULES = {
  target: rule.nonEmptyString,
  key: rule.string,
  quotaKey: rule.string,
  specFile: rule.nonEmptyString,
  scenariosDir: rule.nonEmptyString,
  include: rule.stringList,
  exclude: rule.stringList,
  rules: rule.stringList,
  timeoutMs: rule.number,
  concurrency: rule.number,
  maxWaitMs: rule.number,
  seed: rule.number,
  runPrefix: rule.string,
  operations: rule.stringList,
  fuzz: rule.boolean,
  maxExamples: rule.number,
  fuzzTimeS: rule.number,
  failuresDir: rule.string,
  replay: rule.boolean,
  maxResponseTimeMs: rule.number,
  tags: rule.stringList,
  paths: rule.stringList,
  require: rule.stringList,
  callbacksListen: rule.number,
  callbacksWaitMs: rule.number,
  readOnly: rule.boolean,
  fetch: rule.function,
  onProgress: rule.function,
  onExchange: rule.function,
} satisfies Record<keyof ConformanceOptions, OptionRule>;

function validateOptions(options: ConformanceOptions): void {
  checkOptions('runConformance', options, OPTION_RULES, ['target']);
  let url: URL;
  try {
    url = new URL(options.target);
  } catch {
    throw new ConformanceError(`--target "${options.target}" is not a URL`);
  }
  if (!/^https?:$/.test(url.protocol))
    throw new ConformanceError(`--target must be http(s), not ${url.protocol}`);
}

/** A key is needed only where the document secures an operation: a document without security needs none. */
function validateKey(key: string, spec: LoadedSpec): void {
  if (key) return;
  const secured = spec.operations.filter((op) => op.requiresAuth).length;
  if (secured > 0)
    throw new ConformanceError(
      `no API key: the document secures ${secured} operation(s); pass --key or set CONFORMANCE_API_KEY`,
    );
}

/** §9: the target ends in the document's version segment (`/v1` for the default document), when it has one. */
function validateTarget(target: string, spec: LoadedSpec): void {
  const version = /\/v\d+$/.exec(spec.basePath)?.[0];
  const pathname = new URL(target).pathname.replace(/\/+$/, '');
  if (version && !pathname.endsWith(version))
    throw new ConformanceError(`--target must end in ${version} (§9), got ${target}`);
}

/**
 * A first request that only proves the target answers and takes the key, before anything is judged. Exit 2 when
 * it does not: a refused connection, a 401 to the key on an operation that needs one (the server does not know
 * the key: a setup error, not twenty server failures), or a 429 that outlasts --max-wait (the key or the address
 * is spent or banned before the run began).
 */
async function checkReachable(
  client: Client,
  spec: LoadedSpec,
  probe: OperationSpec | undefined,
  options: ConformanceOptions,
): Promise<void> {
  const reach = reachability(spec, probe);
  const send = () => client.send({ method: 'GET', path: reach.path, auth: { use: 'key' } });
  const first = await send();
  // One 429 is waited out when its Retry-After fits in --max-wait (the client paces the second send).
  const result = first.kind === 'skipped' ? await send() : first;
  if (result.kind === 'error')
    throw new ConformanceError(`target ${options.target} is unreachable: ${result.exchange.error ?? ''}`);
  const where = `GET ${reach.path || '/'}`;
  if (result.kind === 'skipped') {
    const retry = (result.exchange ?? first.exchange)?.response?.headers['retry-after'];
    throw new ConformanceError(
      `the target refuses the key with 429 (${where}${retry !== undefined ? `, Retry-After ${retry}` : ''}): the key or this address is rate-limited or banned before the run began, so nothing can be judged; wait for the reset (or raise --max-wait, now ${options.maxWaitMs ?? 30_000} ms) or use another key`,
    );
  }
  if (result.response.status === 401 && reach.requiresAuth)
    throw new ConformanceError(
      `the target does not accept the API key (401 to ${where}): check --key or CONFORMANCE_API_KEY (a key the server does not know is a setup error, not a finding)`,
    );
}

/**
 * Run the plan's checks; each one's findings go into the tally as it ends (its exchanges are not kept). Each phase
 * is drained: a check, and whatever its closure holds, is let go once it has run.
 */
async function executeChecks(
  phases: Phases,
  ctx: RunContext,
  concurrency: number,
  options: ConformanceOptions,
): Promise<Tally> {
  const findings = createTally();
  const total = phases.first.length + phases.queue.length + phases.last.length;
  let done = 0;
  let failed = 0;
  const runOne = async (check: Check) => {
    const found = await check.run(ctx);
    for (const f of found) findings.add(f);
    done += 1;
    failed += found.filter((f) => f.outcome === 'fail').length;
    options.onProgress?.({ type: 'check', name: check.name, done, total, failed });
  };
  const drain = async (list: Check[]) => {
    for (let next = list.shift(); next; next = list.shift()) await runOne(next);
  };
  await drain(phases.first);
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, () => drain(phases.queue)));
  await drain(phases.last);
  return findings;
}

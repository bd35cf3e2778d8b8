/** Values that flow between the runner's stages: load -> generate -> send -> verdict -> report. */

export type RuleKind = 'contract' | 'assumption';
export type RuleStatus = 'pass' | 'fail' | 'skip';

/** A contract rule: a stable id, a one-line title and the interface section it comes from. */
export interface Rule {
  id: string;
  title: string;
  /** Section of the interface document, e.g. `§5`. */
  source: string;
  kind: RuleKind;
  /** `quota` rules spend a rate-limit quota and run only when included. */
  tags: string[];
}

/** A request as sent, with secrets masked. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A response as received; `body` is an excerpt, `json` the parsed body when it parsed. */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  json?: unknown;
}

/** One request and what came back (or why nothing came back). */
export interface Exchange {
  request: RecordedRequest;
  response?: RecordedResponse;
  /** The whole response text (masked), for the HAR record; `response.body` is an excerpt. */
  responseText?: string;
  error?: string;
  /** Time the request was sent (ms since epoch). */
  sentAt?: number;
  /** operationId of the documented operation the request addressed, if any. */
  operationId?: string;
  /** Time the response arrived (ms since epoch). */
  receivedAt: number;
  /** A 429 the check asked for (quota rules), so the pacer does not treat it as unexpected. */
  expects429?: boolean;
  /** Sent by an assumption probe: its status is judged by that assumption, not as a contract status. */
  outsideContract?: boolean;
}

/** One observation about one rule. */
export interface Finding {
  ruleId: string;
  outcome: RuleStatus;
  problem?: string;
  exchange?: Exchange;
  /** The earlier exchanges of the same check that led to this one (a lifecycle's create, read, ...). */
  steps?: Exchange[];
}

export interface Evidence {
  request: RecordedRequest | null;
  response: RecordedResponse | null;
  problem: string;
  /** The exchanges before this one that the rule's check made (present for multi-step rules). */
  steps?: Array<{ request: RecordedRequest; response: RecordedResponse | null }>;
}

export interface RuleResult {
  id: string;
  title: string;
  kind: RuleKind;
  source: string;
  status: RuleStatus;
  evidence: Evidence[];
}

export interface CoverageEntry {
  operationId: string;
  method: string;
  path: string;
  status: string;
  observed: boolean;
}

/** Something the run created and could not delete at the end. */
export interface Leftover {
  resource: string;
  id: string;
  reason: string;
}

/** What the end-of-run clean-up did: items deleted, and what is left on the target. */
export interface Cleanup {
  deleted: number;
  leftovers: Leftover[];
}

/** The report: what every reporter formats and what `runConformance` returns. */
export interface Report {
  target: string;
  startedAt: string;
  durationMs: number;
  summary: { pass: number; fail: number; skip: number };
  rules: RuleResult[];
  coverage: CoverageEntry[];
  /** Always set by runConformance; optional so that reports built elsewhere (tests, older JSON) still type. */
  cleanup?: Cleanup;
  /** Ids of the rules `--require` named (by id, glob or tag): a skip of one makes the run exit 2. */
  required?: string[];
}

export type ProgressEvent =
  | { type: 'start'; seed: number; runPrefix: string; checks: number }
  | {
      type: 'check';
      name: string;
      done: number;
      total: number;
      /** Failed findings so far. */ failed: number;
    }
  | { type: 'wait'; ms: number; why: string };

/** Options of one run; the CLI builds them from argv and env, library users pass them directly. */
export interface ConformanceOptions {
  /** Base URL ending in `/v1`. */
  target: string;
  /** API key for every ordinary check. */
  key: string;
  /** A separate key whose quota the `quota` rules may spend. */
  quotaKey?: string;
  specFile?: string;
  /** A scenario folder, or `none` to run only the catalogue and the rules generated from the document. */
  scenariosDir?: string;
  include?: string[];
  exclude?: string[];
  rules?: string[];
  timeoutMs?: number;
  concurrency?: number;
  maxWaitMs?: number;
  seed?: number;
  /** Send no writes (POST, PUT, PATCH, DELETE); rules that need one are skipped with that reason. */
  readOnly?: boolean;
  /** The fetch the runner sends with (default globalThis.fetch); an in-process handler works too. */
  fetch?: FetchLike;
  onProgress?: (event: ProgressEvent) => void;
  /** `--operation ID`: only rules about these operations (with --tag and --path: operations matching all). */
  operations?: string[];
  /** `--fuzz`: examples, boundaries and random bodies per operation with a JSON body (conformance/fuzz/). */
  fuzz?: boolean;
  /** `--max-examples N`: random cases per operation (default 50). */
  maxExamples?: number;
  /** `--fuzz-time S`: the fuzz phase sends nothing after S seconds from the start (default 300). */
  fuzzTimeS?: number;
  /** `--failures-dir DIR`: where failures are saved (default .conformance/failures). */
  failuresDir?: string;
  /** `--replay`: send the saved failures again, each reported fixed (pass) or still failing; nothing else. */
  replay?: boolean;
  /** `--max-response-time MS`: the rule `response.max-time` holds every answer to MS milliseconds. */
  maxResponseTimeMs?: number;
  /**
   * `--require TERM`: rules that must run (an id, an id glob with `*`, or a tag); a skip of one is exit 2.
   * A term that matches no rule is a usage error; an opt-in tag named here (quota) is included.
   */
  require?: string[];
  /** `--tag TAG`: operations the document tags so. */
  tags?: string[];
  /** `--path GLOB`: operations whose path template matches (`*` within a segment, `**` across). */
  paths?: string[];
}

/** `globalThis.fetch`, or any `(request) => Promise<Response>` such as an in-process handler. */
export type FetchLike = (request: Request) => Promise<Response>;

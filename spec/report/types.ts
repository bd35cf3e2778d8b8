/** The report's values: rules, exchanges, findings, evidence, coverage; what the runner, the proxy and every formatter share. */

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
  /** The response body was over the judged size and is not recorded whole (a HAR marks it; never judged). */
  truncated?: boolean;
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
  /** Exchanges that observed the pair (the coverage file's count). */
  count?: number;
  /** Why the run did not reach a pair it did not observe (the runner's conformance/verdict/unreached.ts). */
  reason?: string;
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
  /**
   * The proxy's request-side observations: requests of the client the document refuses (deliberate negative
   * tests, most often). Not the server's fault: never counted in `summary`, never a JUnit failure.
   */
  clientRequests?: RuleResult[];
}

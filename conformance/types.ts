/** Values that flow between the runner's stages: load -> execute -> check -> report. */

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
  error?: string;
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
}

export interface Evidence {
  request: RecordedRequest | null;
  response: RecordedResponse | null;
  problem: string;
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

/** The report: what every reporter formats and what `runConformance` returns. */
export interface Report {
  target: string;
  startedAt: string;
  durationMs: number;
  summary: { pass: number; fail: number; skip: number };
  rules: RuleResult[];
  coverage: CoverageEntry[];
}

export type ProgressEvent =
  | { type: 'start'; seed: number; runPrefix: string; checks: number }
  | { type: 'check'; name: string; done: number; total: number }
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
  scenariosDir?: string;
  include?: string[];
  exclude?: string[];
  rules?: string[];
  timeoutMs?: number;
  concurrency?: number;
  maxWaitMs?: number;
  seed?: number;
  onProgress?: (event: ProgressEvent) => void;
}

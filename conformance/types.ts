/** Values that flow between the runner's stages: load -> generate -> send -> verdict -> report. */
import type { Exchange } from '../spec/report/types';

export type {
  Cleanup,
  CoverageEntry,
  Evidence,
  Exchange,
  Finding,
  Leftover,
  RecordedRequest,
  RecordedResponse,
  Report,
  Rule,
  RuleKind,
  RuleResult,
  RuleStatus,
} from '../spec/report/types';

export type ProgressEvent =
  | { type: 'start'; seed: number; runPrefix: string; checks: number }
  | {
      type: 'check';
      name: string;
      done: number;
      total: number;
      /** Failed findings so far. */ failed: number;
    }
  | { type: 'wait'; ms: number; why: string }
  | { type: 'callbacks'; url: string };

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
  /** The prefix of every generated value (default `conformance-<time>`): parity runs share one, so both servers get the same bodies. */
  runPrefix?: string;
  /** Send no writes (POST, PUT, PATCH, DELETE); rules that need one are skipped with that reason. */
  readOnly?: boolean;
  /** The fetch the runner sends with (default: node:http, conformance/send/http.ts); an in-process handler works too. */
  fetch?: FetchLike;
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Each exchange of the run as it completes (masked, with the whole response text): `--record` streams them to
   * a HAR file. The run itself keeps none of them.
   */
  onExchange?: (exchange: Exchange) => void;
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
  /**
   * `--callbacks-listen PORT`: a receiver on 127.0.0.1:PORT (0: a free port) for the callback rules; without it
   * they are skipped (`no --callbacks-listen`).
   */
  callbacksListen?: number;
  /** `--callbacks-wait-ms MS`: how long each documented callback has to arrive (default 3000). */
  callbacksWaitMs?: number;
}

/** `globalThis.fetch`, or any `(request) => Promise<Response>` such as an in-process handler. */
export type FetchLike = (request: Request) => Promise<Response>;

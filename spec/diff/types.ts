/** The values of a document diff and of recorded traffic replayed against the new document. */

/** Where a change is: the operation as a whole, its request, its response, or its security. */
export type ChangeSide = 'operation' | 'request' | 'response' | 'security';

/** One change between two versions of a document, classified for the clients of the API. */
export interface Change {
  /** Stable kind, e.g. `operation.removed`, `request.property.required`, `response.type.widened`. */
  kind: string;
  breaking: boolean;
  side: ChangeSide;
  method: string;
  /** The path template as the old document writes it (the new one's for an added operation). */
  path: string;
  /** operationId in the old document (the new one's for an added operation). */
  operationId: string;
  /** The response status a response-side change is under. */
  status?: string;
  /** Where inside the operation: `body /status`, `query parameter limit`, `header X-Rate`. */
  where: string;
  /** One line: what changed, e.g. `status is newly required`. */
  message: string;
}

/** An example of a recorded call, masked (no key, no token, no cookie value). */
export interface MaskedCall {
  method: string;
  url: string;
  status?: number;
  problem: string;
}

/** What recorded traffic does with one operation of the old document under the new one. */
export interface OperationTraffic {
  operationId: string;
  method: string;
  path: string;
  /** Recorded calls of this operation (by the old document's routing). */
  calls: number;
  /** Calls the old document accepted and the new one refuses; `reasons` counts them by problem. */
  refused: number;
  /** Recorded answers the old document accepted and the new one rejects. */
  rejected: number;
  /** True when the new document has no such operation (every call is refused). */
  removed: boolean;
  /** Problem text -> how many calls have it (one call may have several). */
  reasons: Record<string, number>;
  /** A few masked examples. */
  examples: MaskedCall[];
  /** Recorded (status -> calls), for the response-side changes a call exercises. */
  statuses: Record<string, number>;
}

/** Recorded traffic replayed against the new document. */
export interface TrafficReplay {
  files: string[];
  /** Every recorded exchange read (a browser's aborted requests, status 0, are not counted). */
  recorded: number;
  /** Exchanges that address no operation of the old document (other hosts, undocumented paths). */
  outside: number;
  /** Recorded requests the old document already refused (the client's own faults, unchanged). */
  alreadyRefused: number;
  operations: OperationTraffic[];
}

/** A change and whether recorded traffic exercises it. */
export interface ClassifiedChange extends Change {
  /** undefined when no traffic was given. */
  exercised?: boolean;
  /** Recorded calls that exercise it. */
  calls?: number;
  /** Recorded calls of its operation the old version accepted (a change may be unexercised on a used operation). */
  operationCalls?: number;
}

/** The whole result of `--diff OLD NEW [--har FILE…]`. */
export interface DiffResult {
  old: { file: string; version?: string };
  new: { file: string; version?: string };
  changes: ClassifiedChange[];
  traffic?: TrafficReplay;
}

/** The document walk's values: a call, the step it became, the walk's state. */
import type { OperationSpec } from '../../spec/compile';
import type { LoadedSpec } from '../../spec/load';
import type { Resource, ResourceModel } from '../../spec/resources';

/** One call of the walk and what came back. */
export interface WalkStep {
  /** `createSpecialEvent`, `getSpecialEvent after delete`, `deleteBooking without credentials` … */
  label: string;
  operationId: string;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseText: string;
  /** What is wrong with the answer; empty when it is what the document says. */
  problems: string[];
}

export interface WalkResult {
  steps: WalkStep[];
  /** Every problem, prefixed with its step's label. */
  problems: string[];
  /** operationIds called with a valid key. */
  covered: Set<string>;
}

/** One call: the operation, its path parameters, a body; statuses it must answer (default: the documented 2xx). */
export interface Call {
  op: OperationSpec;
  label: string;
  params: Record<string, string>;
  body?: unknown;
  expect?: number[];
  anonymous?: boolean;
  /** Send the body as application/x-www-form-urlencoded (documented beside JSON). */
  form?: boolean;
}

/** The walk as it goes: what it sent, what it covered, the items it made for other operations. */
export interface DocumentWalk {
  spec: LoadedSpec;
  model: ResourceModel;
  random: () => number;
  steps: WalkStep[];
  /** operationIds called with a valid key. */
  covered: Set<string>;
  /** Items created for operations that need one, deleted at the end. */
  spare: Array<{ resource: Resource; id: string }>;
  /** A sub-collection's parent item parameters (`{slug}` of `/articles/{slug}/comments`), created once. */
  under: Map<Resource, Record<string, string>>;
  /** Send one call through the runner's client; the step, judged, or undefined when nothing was sent. */
  send(call: Call): Promise<WalkStep | undefined>;
}

/** The data that flows through the pipeline: the request, what each stage learned, and the final reply. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Writable } from 'node:stream';
import type { ValidateFunction } from 'ajv';
import type { LoadedSpec, OperationSpec } from '../../spec/load';
import type { Category, NewCategory } from '../../spec/types';
import type { MockConfig } from '../node/config';
import type { ExampleEngine } from './engines/types';
import type { Keyring } from './keys';
import type { Logger } from './log';
import type { PlanName } from './plans';
import type { CategoryStore, LimiterStore, WindowSpec } from './stores/types';
import type { SpecDocuments } from '../node/ui/documents';
import type { RecentRequests } from '../node/ui/recent';

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** A request as the HTTP adapter hands it over: body already read (up to the size limit). */
export interface MockRequest {
  method: string;
  /** The path without the query string, exactly as sent (still percent-encoded). */
  path: string;
  headers: IncomingHttpHeaders;
  remoteAddress: string;
  body: Buffer;
  /** The body was larger than the configured limit; `body` holds nothing useful then. */
  bodyTooLarge: boolean;
  /** `1.1` or `1.0` (HTTP/1.0 needs no Host header); absent for requests built in tests. */
  httpVersion?: string;
}

export interface Identity {
  authenticated: boolean;
  plan: PlanName | 'anonymous';
  /** Rate-limit subject: a key digest or the client address. */
  subject: string;
  /** Printable: plan and digest prefix, or the address. Never the key. */
  label: string;
  windows: WindowSpec[];
  /** Why the request is not authenticated, for the 401 message. */
  authProblem?: string;
}

export interface Ctx {
  req: MockRequest;
  identity?: Identity;
  /** X-RateLimit-* for this request, set by the rate-limit stage (§8: every response carries them). */
  limitHeaders?: Record<string, string>;
  operation?: OperationSpec;
  /** Path parameters, percent-decoded by the validate stage. */
  params?: Record<string, string>;
  /** The validated request body. */
  input?: NewCategory;
  /** Status asked for with `Prefer: code=NNN`. */
  preferStatus?: number;
}

export interface Reply {
  status: number;
  /** A value to serialise as JSON, or bytes already serialised. */
  body?: unknown;
  raw?: Buffer;
  headers?: Record<string, string>;
  /** A streamed body (the inspector's server-sent events): the adapter hands over the response, open. */
  stream?: (out: Writable) => void;
}

export type StageOutcome = { next: Ctx } | { reply: Reply; ctx: Ctx };

export interface Deps {
  config: MockConfig;
  spec: LoadedSpec;
  keyring: Keyring;
  categories: CategoryStore;
  limiter: LimiterStore;
  engine: ExampleEngine;
  clock: Clock;
  /** Seed categories, for reset. */
  seed: readonly NewCategory[];
  log: Logger;
  /** The mock's NewCategory policy (mock/policy.ts), compiled once. */
  policy: ValidateFunction;
  /** Serialised list cache, keyed by the store's version, so a repeated GET does not re-serialise. */
  listCache: { current: { version: number; raw: Buffer } | null };
  /** The pages outside /v1 (mock/ui): the spec as served, recent requests, and the deps serving now. */
  ui?: { documents: SpecDocuments; recent: RecentRequests; current: () => Deps };
}

export type Stage = (ctx: Ctx, deps: Deps) => Promise<StageOutcome> | StageOutcome;

export type { Category };

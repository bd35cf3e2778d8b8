/** The data that flows through the pipeline: the request, what each stage learned, and the final reply. */
import type { CompiledSpec, OperationSpec } from '../../spec/compile';
import type { Binding, ResourceModel } from '../../spec/resources';
import type { ItemScope } from '../../spec/item-scope';
import type { Chaos } from './chaos';
import type { BodyCheck, BodyRead } from './body-check';
import type { UploadedFile } from '../../spec/http/multipart';
import type { CallbackSend } from './callbacks';
import type { CredentialReader } from './credentials';
import type { ErrorFields, ErrorShaper } from '../../spec/error-shape';
import type { ExampleEngine } from './engines/types';
import type { Keyring } from './keys';
import type { Logger } from './log';
import type { MockConfig } from './settings';
import type { LimiterStore, RecordStore, SeedData, WindowSpec } from './stores/types';

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The body as read: at most the size limit; a larger one is flagged, not kept. */
export type { BodyRead };

/** Reads the body on demand (after identity and rate limit are decided); null when the client went away. */
export type BodySource = (limit: number) => Promise<BodyRead | null>;

/** A request as plain data, from any transport. */
export interface MockRequest {
  method: string;
  /** The path without the query string, exactly as sent (still percent-encoded). */
  path: string;
  /** The query string without `?` (empty when none). */
  query: string;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  remoteAddress: string;
  /** The body bytes, when the adapter has them already; otherwise `readBody` gives them on demand. */
  body?: Uint8Array;
  readBody?: BodySource;
  /** `1.1` or `1.0` (HTTP/1.0 needs no Host header); absent for other transports. */
  httpVersion?: string;
}

export interface Identity {
  authenticated: boolean;
  plan: string;
  /** Rate-limit subject: a key digest or the client address. */
  subject: string;
  /** Printable: plan and label, or the address. Never the key. */
  label: string;
  windows: WindowSpec[];
  /** Security schemes whose credential is a valid key. */
  schemes: ReadonlySet<string>;
  /** Why the request is not authenticated, for the 401 message. */
  authProblem?: string;
}

/**
 * The request's one context, as far as the pipeline got: what the reply, the respond step and the log see,
 * whichever stage replied. Each stage records what it learned on this one object (nothing is copied per stage)
 * and hands it on typed by what is now known: `CallerCtx` after identify, `CountedCtx` after the rate limit,
 * `RoutedCtx` after route, `ReadCtx` after the body is read. A stage says which it needs, so the order of the
 * stages is checked by the compiler (mock/core/pipeline.ts), not at run time.
 */
export interface Ctx {
  req: MockRequest;
  identity?: Identity;
  /** X-RateLimit-* (and the IETF fields) for this request (§8: every response carries them). */
  limitHeaders?: Record<string, string>;
  operation?: OperationSpec;
  /** The operation with everything bound to it at load (its body check, resource action, chaos settings). */
  bound?: BoundOperation;
  /** The resource and action the operation is, when it is one. */
  binding?: Binding;
  /** Path parameters, percent-decoded by the validate stage. */
  params?: Record<string, string>;
  /** Query parameters, decoded. */
  query?: Record<string, string[]>;
  body?: BodyRead;
  /** The validated request body. */
  input?: unknown;
  /** The files a multipart body carried (their names, sizes and types: a create's record says them). */
  uploads?: UploadedFile[];
  /** Status asked for with `Prefer: code=NNN`. */
  preferStatus?: number;
  /** `Prefer: example=NAME`: that named example of the chosen status (checked to exist by validate). */
  preferExample?: string;
  /** `Prefer: dynamic=true`: values generated from the schema instead of the example. */
  preferDynamic?: boolean;
  /** How long the adapter holds the answer back (`Prefer: delay=`, `--latency`). */
  delayMs?: number;
  /** What was injected into this answer (`delay 200ms`, `fault 503`, `reset`), for the log and the inspector. */
  injected?: string[];
}

/** After identify: who is calling (a key's plan, or anonymous by address). */
export interface CallerCtx extends Ctx {
  identity: Identity;
}

/** After the rate limit: the caller was counted, and the headers every answer carries are known. */
export interface CountedCtx extends CallerCtx {
  limitHeaders: Record<string, string>;
}

/** After route: the operation of the document the request addresses, and its raw path parameters. */
export interface RoutedCtx extends CountedCtx {
  operation: OperationSpec;
  bound: BoundOperation;
  params: Record<string, string>;
}

/** After readBody: the body as read (empty when the operation takes none and none was sent). */
export interface ReadCtx extends RoutedCtx {
  body: BodyRead;
}

/**
 * An operation of the document with what serving it needs, worked out once at load (mock/core/bound.ts): the
 * route stage finds it with the operation, and no later stage looks anything up by operationId per request.
 */
export interface BoundOperation {
  operation: OperationSpec;
  /** The resource and action the operation is, when it is one. */
  binding?: Binding;
  /** The status the binding's action answers with (201 for a create …), when there is a binding. */
  successStatus?: number;
  /** An operation under an item path that no action binds (mock/core/stages/handle.ts `onItem`). */
  itemScope?: ItemScope;
  /** The compiled request body check, when the operation documents a body. */
  bodyCheck?: BodyCheck;
  /** Latency and fault rate of this operation (its own settings over --latency and --faults). */
  chaos: Chaos;
  /** Does the operation declare any parameter (path, query, querystring, header, cookie) to check? */
  hasParameters: boolean;
  /** Does the document give the operation callbacks (sent after an accepted request)? */
  hasCallbacks: boolean;
}

/** Where a streamed reply writes (the inspector's server-sent events); a node ServerResponse fits. */
export interface EventSink {
  write(chunk: string): boolean;
  end(): void;
  on(event: 'close' | 'drain', listener: () => void): unknown;
  /** Bytes queued and not yet sent, when the transport knows. */
  readonly writableLength?: number;
  destroy?(): void;
}

export interface Reply {
  status: number;
  /** A value to serialise as JSON, or bytes already serialised. */
  body?: unknown;
  raw?: Uint8Array;
  /** An error of the catalogue: rendered in the document's error shape for this status. */
  error?: ErrorFields;
  headers?: Record<string, string>;
  /** Media type of `body`/`raw` (default `application/json`). */
  contentType?: string;
  /** A streamed body: the adapter hands over the open response. */
  stream?: (out: EventSink) => void;
  /** false: no CORS headers whatever the origin (the mock's own admin and inspector routes). */
  cors?: false;
  /** An injected fault: the adapter resets the connection instead of answering. */
  reset?: true;
}

/** A stage's final answer, and the context as far as the pipeline got (for the respond step and the log). */
export interface Replied {
  reply: Reply;
  ctx: Ctx;
}

/** What a stage gives: the context for the next stage, or a reply, which stops the chain. */
export type Outcome<Out extends Ctx> = Out | Replied;

/** Pure: did the stage reply (a context never has a `reply` field)? */
export const replied = <Out extends Ctx>(out: Outcome<Out>): out is Replied => 'reply' in out;

/** One read operation's answers, for one bucket at one store version, by item key. */
export interface ReadCacheEntry {
  bucket: string;
  version: number;
  items: Map<string, CachedAnswer>;
}

/** The bytes of one answer and how they are labelled. */
export interface CachedAnswer {
  status: number;
  raw: Uint8Array;
  contentType: string | undefined;
}

export interface Deps {
  config: MockConfig;
  spec: CompiledSpec;
  model: ResourceModel;
  keyring: Keyring;
  records: RecordStore;
  limiter: LimiterStore;
  engine: ExampleEngine;
  clock: Clock;
  /** Seed records by resource, for reset. */
  seed: SeedData;
  log: Logger;
  /** Limits of callers without a valid key, per client address. */
  anonymous: WindowSpec[];
  /** How each security scheme of the document carries a key. */
  credentials: readonly CredentialReader[];
  /** Compiled request body checks, by operationId (a patch checks its result with another operation's). */
  bodies: ReadonlyMap<string, BodyCheck>;
  /** Every operation of the document with what is bound to it at load, found by the route stage. */
  bound: ReadonlyMap<OperationSpec, BoundOperation>;
  errors: ErrorShaper;
  /** Serialised list per resource, keyed by the store's version, so a repeated GET does not re-serialise. */
  listCache: Map<string, { version: number; raw: Uint8Array; contentType: string | undefined }>;
  /** Serialised item answers per read operation, keyed by the store's version (mock/core/read-cache.ts). */
  readCache: Map<OperationSpec, ReadCacheEntry>;
  /** Numbers in [0, 1) for latency ranges and faults, seeded by `randomSeed`. */
  random: () => number;
  /** Waits `ms` (the adapters hold a delayed answer back with it; tests inject their own). */
  sleep: (ms: number) => Promise<void>;
  /** Takes the callbacks decided after an accepted request (mock/node sends them); none: callbacks are not sent. */
  outbox?: (sends: CallbackSend[]) => void;
}

/**
 * One step of the pipeline: takes the context as far as the earlier stages brought it (`In`) and gives the
 * context for the next (`Out`), or a reply. Synchronous unless it must wait (a store across the network, a body
 * still arriving).
 */
export type Stage<In extends Ctx = Ctx, Out extends Ctx = In, D extends Deps = Deps> = (
  ctx: In,
  deps: D,
) => Outcome<Out> | Promise<Outcome<Out>>;

/** The last stage: it always replies. */
export type FinalStage<In extends Ctx, D extends Deps = Deps> = (
  ctx: In,
  deps: D,
) => Replied | Promise<Replied>;

/** The Node layer's dependencies: the engine's, plus what the pages and --watch need. */
import type { Deps } from '../core/context';
import type { SpecDocuments } from '../../spec/pages/documents';
import type { RecentRequests } from './ui/recent';
import type { CallbackSender } from './callbacks';

export interface NodeDeps extends Deps {
  /** The pages outside the base path (mock/node/ui): the spec as served, recent requests, the deps serving now. */
  ui?: {
    documents: SpecDocuments;
    recent: RecentRequests;
    current: () => NodeDeps;
    /** The inspector's open streams and their bounds. */
    streams: StreamState;
    /** Set when the server listens: on an address other than loopback, admin and inspector need a token. */
    listener: { exposed: boolean };
  };
  /** The keys file's plans, for a reload. */
  allowShortKeys: boolean;
  /** Sends the document's callbacks and remembers each send (`GET /_mock/callbacks`, the inspector). */
  callbacks?: CallbackSender;
}

/** Bounds of the inspector's live streams (mock/node/ui/events.ts). */
export interface StreamLimits {
  /** Most streams open at once. */
  max: number;
  /** A stream is closed after this long; the page reconnects. */
  lifetimeMs: number;
  /** A client whose buffer stays full this long is dropped. */
  stallMs: number;
  /** A client with more than this queued is dropped at once. */
  maxBufferedBytes: number;
  /** How often the snapshot is looked at. */
  tickMs: number;
  /** Records shown per resource; the rest are counted only. */
  recordsShown: number;
}

/** The inspector's open streams and the snapshot they share. */
export interface StreamState {
  open: number;
  limits: StreamLimits;
  /** The last snapshot built and when: every stream of one tick shares it (built once, not once per stream). */
  shared?: { atMs: number; deps: NodeDeps; data: Promise<string> };
  /** How to end each open stream (a graceful stop ends them at once: they would hold it for its whole limit). */
  enders?: Set<() => void>;
}

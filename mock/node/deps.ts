/** The Node layer's dependencies: the engine's, plus what the pages and --watch need. */
import type { Deps } from '../core/context';
import type { SpecDocuments } from './ui/documents';
import type { StreamState } from './ui/events';
import type { RecentRequests } from './ui/recent';

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
}

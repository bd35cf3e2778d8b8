/** The Node layer's dependencies: the engine's, plus what the pages and --watch need. */
import type { Deps } from '../core/context';
import type { SpecDocuments } from './ui/documents';
import type { RecentRequests } from './ui/recent';

export interface NodeDeps extends Deps {
  /** The pages outside the base path (mock/node/ui): the spec as served, recent requests, the deps serving now. */
  ui?: { documents: SpecDocuments; recent: RecentRequests; current: () => NodeDeps };
  /** The keys file's plans, for a reload. */
  allowShortKeys: boolean;
}

import type { Route } from '../routing/route-table';

/** A chain's head as last read from a node: its height, its block's hash, and when it was read (Date.now() ms). */
export interface Head {
  height: number;
  hash: string;
  readAt: number;
}

/**
 * Where the cache learns each endpoint's head and its reorgs: the HeadTracker (`src/heads/`)
 * satisfies it. `headOf` is the head of a node route, or for a pool the best head among the
 * members that may serve; `onReorg` says that blocks at `forkHeight` and above of `routeId` (a
 * node's id, or a pool's) are no longer what they were.
 */
export interface HeadSource {
  headOf(route: Route): Head | undefined;
  onReorg(listener: (routeId: string, forkHeight: number) => void): void;
}

import type { NodeRoute, RouteTableLike } from '@cloud/bus';
import { IMAGES, isImageId } from '@cloud/chains';

/** The chain families a stream can follow (avalanche validators are not followed). */
export type StreamFamily = 'ethereum' | 'bitcoin';

/** Where a stream reads its chain: one node's own RPC, logged in to with that node's internal login. */
export interface FollowTarget {
  /** The node read (a pool's member, for a pool): its id derives the internal login. */
  nodeId: string;
  upstream: string;
  family: StreamFamily;
}

/** Why a stream's node cannot be read now (the stream waits, and says so). */
export interface Unfollowable {
  reason: string;
}

/** The family of a node or pool route, or null when streams cannot follow it. */
export function familyOf(route: Pick<NodeRoute, 'image'>): StreamFamily | null {
  if (!isImageId(route.image)) return null;
  const family = IMAGES[route.image].family;
  return family === 'ethereum' || family === 'bitcoin' ? family : null;
}

/**
 * Every node and pool of the platform as the nodes service announces them (`node.*`, `pool.*`, the
 * `nodes.routes` snapshot through RouteSync): whose each is, its chain, and where a stream reads
 * it. A route applies only when its revision is newer than the one held.
 */
export class NodeRoutes implements RouteTableLike {
  private readonly routes = new Map<string, NodeRoute>();

  get size(): number {
    return this.routes.size;
  }

  apply(route: NodeRoute): void {
    const held = this.routes.get(route.nodeId);
    if (held && held.revision >= route.revision) return;
    if (route.state === 'deleted') this.routes.delete(route.nodeId);
    else this.routes.set(route.nodeId, route);
  }

  removeAllBut(present: ReadonlySet<string>): void {
    for (const id of this.routes.keys()) if (!present.has(id)) this.routes.delete(id);
  }

  get(nodeId: string): NodeRoute | undefined {
    return this.routes.get(nodeId);
  }

  /**
   * Where to read the node's chain now: the node itself while it answers (running or syncing),
   * for a pool the first of its members that does.
   */
  followTarget(nodeId: string): FollowTarget | Unfollowable {
    const route = this.routes.get(nodeId);
    if (!route) return { reason: 'the node is not known (yet): it was deleted, or the platform is still loading its nodes' };
    const family = familyOf(route);
    if (!family) return { reason: `streams do not follow ${route.image} nodes` };
    const candidates = route.pool ? route.pool.members.map((member) => this.routes.get(member)).filter((member) => member !== undefined) : [route];
    const answering = candidates.find((candidate) => (candidate.state === 'running' || candidate.state === 'syncing') && candidate.upstream);
    if (!answering) return { reason: route.pool ? 'no member of the pool is running' : `the node is ${route.state}` };
    return { nodeId: answering.nodeId, upstream: answering.upstream!, family };
  }
}

export function isFollowable(target: FollowTarget | Unfollowable): target is FollowTarget {
  return 'upstream' in target;
}

import { message, type BusMessage, type NodeRoute, type PoolOfRoute } from '@cloud/bus';
import type { PoolRecord } from '../data-access/pool-record';
import { credentialFields } from './lifecycle-messages';

/**
 * What the node-proxy routes a pool's calls by: a route under the pool's id with the pool's own
 * credentials and access rules, its members' image and dev flag, no upstream of its own (a call
 * goes to a member), `running` while it exists and `deleted` once gone.
 */
export function poolRoute(pool: PoolRecord): NodeRoute & { pool: PoolOfRoute } {
  return {
    nodeId: pool.id,
    userId: pool.userId,
    image: pool.image,
    chain: pool.chain,
    revision: pool.revision,
    dev: pool.dev,
    state: pool.deleted ? 'deleted' : 'running',
    upstream: null,
    ...credentialFields(pool),
    pool: { members: pool.members, maxLagBlocks: pool.maxLagBlocks },
  };
}

/** `pool.changed` (created or changed) or `pool.deleted`, at the pool's new revision. */
export function poolMessage(pool: PoolRecord): BusMessage {
  const route = poolRoute(pool);
  return pool.deleted ? message('pool.deleted', route, pool.updatedAt) : message('pool.changed', route, pool.updatedAt);
}

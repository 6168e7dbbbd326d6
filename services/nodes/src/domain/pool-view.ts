import type { NodeAccess } from '@cloud/bus';
import { IMAGES, networkLabel, nodeEndpoints, type NodeEndpoints, type ProxyAddresses } from '@cloud/chains';
import type { NodeRecord } from '../data-access/node-record';
import type { NodesRepository } from '../data-access/nodes.repository';
import type { PoolRecord } from '../data-access/pool-record';
import { NO_ACCESS_RULES, type SyncView } from './node-view';

/** A member of a pool as its record shows it: the node's name, state and last sync reading. */
export interface PoolMemberView {
  nodeId: string;
  name: string | null;
  state: string;
  sync: SyncView | null;
}

/** A pool as the API shows it; `nodeUser`/`nodePass` only in the answer that created it. */
export interface PoolView {
  id: string;
  name: string;
  image: string;
  chain: string;
  network: string;
  networkLabel: string;
  dev: boolean;
  maxLagBlocks: number;
  members: PoolMemberView[];
  /** Where to call it, as a node's (`@cloud/chains` nodeEndpoints): the proxy routes by the pool's credential. */
  endpoints: NodeEndpoints;
  access: NodeAccess;
  createdAt: string;
  updatedAt: string;
  nodeUser?: string;
  nodePass?: string;
}

/** The pool's addresses: a pool is always routed by its credential (it has no name-routed host of its own). */
export function poolEndpoints(pool: PoolRecord, addresses: ProxyAddresses): NodeEndpoints {
  return nodeEndpoints({ id: pool.id, ports: IMAGES[pool.image].ports, routedByCredential: true }, addresses);
}

export function toPoolView(
  pool: PoolRecord,
  nodes: ReadonlyMap<string, NodeRecord>,
  addresses: ProxyAddresses,
  credentials?: { nodeUser: string; nodePass: string },
): PoolView {
  const image = IMAGES[pool.image];
  return {
    id: pool.id,
    name: pool.name,
    image: pool.image,
    chain: pool.chain,
    network: image.network,
    networkLabel: networkLabel({ chain: image.chain, network: image.network, dev: pool.dev, image: pool.image }),
    dev: pool.dev,
    maxLagBlocks: pool.maxLagBlocks,
    members: pool.members.map((nodeId) => memberView(nodeId, nodes.get(nodeId))),
    endpoints: poolEndpoints(pool, addresses),
    access: pool.access ?? NO_ACCESS_RULES,
    createdAt: pool.createdAt.toISOString(),
    updatedAt: pool.updatedAt.toISOString(),
    ...(credentials ? { nodeUser: credentials.nodeUser, nodePass: credentials.nodePass } : {}),
  };
}

function memberView(nodeId: string, node: NodeRecord | undefined): PoolMemberView {
  // A deleting node has left its pools in the same transaction: a member is always found.
  if (!node) return { nodeId, name: null, state: 'deleted', sync: null };
  return { nodeId, name: node.name, state: node.state, sync: node.sync && { ...node.sync, checkedAt: node.sync.checkedAt.toISOString() } };
}

/** The pools as the API shows them, their members read in one query. */
export async function poolViews(pools: readonly PoolRecord[], nodes: NodesRepository, addresses: ProxyAddresses): Promise<PoolView[]> {
  const members = await nodes.findMany([...new Set(pools.flatMap((pool) => pool.members))]);
  const byId = new Map(members.map((node) => [node.id, node]));
  return pools.map((pool) => toPoolView(pool, byId, addresses));
}

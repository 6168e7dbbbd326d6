import type { NodeAccess } from '@cloud/bus';
import { IMAGES, networkLabel, nodeEndpoints, type NodeEndpoints, type ProxyAddresses } from '@cloud/chains';
import type { NodeRecord, SyncStatus } from '../data-access/node-record';

/** A node as the API shows it; `nodeUser`/`nodePass` only in the answer that made them. */
export interface NodeView {
  id: string;
  name: string | null;
  user: string;
  image: string;
  chain: string;
  network: string;
  /** The network in words, as every screen shows it (`@cloud/chains` networkLabel): `ltc mainnet`, `ltc dev chain (regtest)`. */
  networkLabel: string;
  software: string;
  large: boolean;
  jwt: boolean;
  dev: boolean;
  txindex: boolean;
  state: string;
  sync: SyncView | null;
  stateReason: string | null;
  address: string;
  ports: { jsonRpc: number; rest?: number; webSocket?: number };
  /** Where to call it, as every client pastes it (`@cloud/chains` nodeEndpoints). */
  endpoints: NodeEndpoints;
  /** Its owner's access rules; empty lists and a null rate when none are set. */
  access: NodeAccess;
  createdAt: string;
  updatedAt: string;
  nodeUser?: string;
  nodePass?: string;
}

export interface SyncView extends Omit<SyncStatus, 'checkedAt'> {
  checkedAt: string;
}

/** A node whose owner set no rules: reached from anywhere, by any origin's script without CORS, at the operator's rate. */
export const NO_ACCESS_RULES: NodeAccess = Object.freeze({
  ipAllowlist: [],
  originAllowlist: [],
  refusedMethods: [],
  ratePerSecond: null,
  maxAnswerBytes: null,
});

export function nodeAddress(nodeId: string, nodeDomain: string): string {
  return `${nodeId}.${nodeDomain}`;
}

export function toNodeView(node: NodeRecord, addresses: ProxyAddresses, credentials?: { nodeUser: string; nodePass: string }): NodeView {
  const image = IMAGES[node.image];
  return {
    id: node.id,
    name: node.name,
    user: node.userId,
    image: node.image,
    chain: image.chain,
    network: image.network,
    networkLabel: networkLabel({ chain: image.chain, network: image.network, dev: node.dev, image: node.image }),
    software: node.software,
    large: node.large,
    jwt: node.jwt,
    dev: node.dev,
    txindex: node.txindex,
    state: node.state,
    sync: node.sync && { ...node.sync, checkedAt: node.sync.checkedAt.toISOString() },
    stateReason: node.stateReason,
    address: nodeAddress(node.id, addresses.nodeDomain),
    ports: { ...image.ports },
    endpoints: nodeEndpoints({ id: node.id, ports: image.ports, routedByCredential: !node.jwt }, addresses),
    access: node.access ?? NO_ACCESS_RULES,
    createdAt: node.createdAt.toISOString(),
    updatedAt: node.updatedAt.toISOString(),
    ...(credentials ? { nodeUser: credentials.nodeUser, nodePass: credentials.nodePass } : {}),
  };
}

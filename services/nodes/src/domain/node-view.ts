import { IMAGES } from '@cloud/chains';
import type { NodeRecord } from './node';

/** A node as the API shows it; `nodeUser`/`nodePass` only in the answer that made them. */
export interface NodeView {
  id: string;
  user: string;
  image: string;
  chain: string;
  network: string;
  software: string;
  large: boolean;
  jwt: boolean;
  state: string;
  stateReason: string | null;
  address: string;
  ports: { jsonRpc: number; rest?: number; webSocket?: number };
  createdAt: string;
  updatedAt: string;
  nodeUser?: string;
  nodePass?: string;
}

export function nodeAddress(nodeId: string, nodeDomain: string): string {
  return `${nodeId}.${nodeDomain}`;
}

export function toNodeView(node: NodeRecord, nodeDomain: string, credentials?: { nodeUser: string; nodePass: string }): NodeView {
  const image = IMAGES[node.image];
  return {
    id: node.id,
    user: node.userId,
    image: node.image,
    chain: image.chain,
    network: image.network,
    software: node.software,
    large: node.large,
    jwt: node.jwt,
    state: node.state,
    stateReason: node.stateReason,
    address: nodeAddress(node.id, nodeDomain),
    ports: { ...image.ports },
    createdAt: node.createdAt.toISOString(),
    updatedAt: node.updatedAt.toISOString(),
    ...(credentials ? { nodeUser: credentials.nodeUser, nodePass: credentials.nodePass } : {}),
  };
}

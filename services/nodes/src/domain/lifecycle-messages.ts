import { message, type BusMessage, type NodeRoute } from '@cloud/bus';
import { IMAGES } from '@cloud/chains';
import type { NodeRecord } from './node';

type LifecycleKind = 'node.created' | 'node.credentials-changed' | 'node.deleting' | 'node.deleted';

/** What the node-proxy routes and authenticates the node's calls by, at the node's current revision. */
export function nodeRoute(node: NodeRecord): NodeRoute {
  return {
    nodeId: node.id,
    userId: node.userId,
    image: node.image,
    chain: IMAGES[node.image].chain,
    revision: node.revision,
    state: node.state,
    // A jwt node has no Basic credentials.
    basic: node.nodeUser && node.nodePasswordHash ? { user: node.nodeUser, passwordSha256: node.nodePasswordHash } : null,
    upstream: node.upstreamUrl,
  };
}

/** The bus message announcing a node's change, at its new revision. */
export function lifecycleMessage(kind: LifecycleKind, node: NodeRecord): BusMessage {
  return message(kind, nodeRoute(node), node.updatedAt);
}

export function runningMessage(node: NodeRecord, address: string): BusMessage {
  return message('node.running', { ...nodeRoute(node), address }, node.updatedAt);
}

export function failedMessage(node: NodeRecord): BusMessage {
  return message('node.failed', { ...nodeRoute(node), reason: node.stateReason ?? '' }, node.updatedAt);
}

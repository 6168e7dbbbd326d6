import { message, type BusMessage, type NodeRoute } from '@cloud/bus';
import { IMAGES } from '@cloud/chains';
import type { NodeRecord } from './node';

type LifecycleKind = 'node.created' | 'node.credentials-changed' | 'node.access-changed' | 'node.stopping' | 'node.stopped' | 'node.starting' | 'node.deleting' | 'node.deleted';

/** What the node-proxy routes and authenticates the node's calls by, at the node's current revision. */
export function nodeRoute(node: NodeRecord): NodeRoute {
  const first = node.credentials[0];
  return {
    nodeId: node.id,
    userId: node.userId,
    image: node.image,
    chain: IMAGES[node.image].chain,
    revision: node.revision,
    dev: node.dev,
    state: node.state,
    // A jwt node has no Basic credentials; a Basic node always keeps at least one.
    basic: first ? { user: first.user, passwordSha256: first.passwordSha256 } : null,
    upstream: node.upstreamUrl,
    credentials: node.credentials.map(({ id, user, passwordSha256 }) => ({ id, user, passwordSha256 })),
    ...(node.access ? { access: node.access } : {}),
  };
}

/** The bus message announcing a node's change, at its new revision. */
export function lifecycleMessage(kind: LifecycleKind, node: NodeRecord): BusMessage {
  return message(kind, nodeRoute(node), node.updatedAt);
}

/** `node.syncing` or `node.running`, as the node's state is: it answers at `address`. */
export function answeringMessage(node: NodeRecord, address: string): BusMessage {
  return message(node.state === 'syncing' ? 'node.syncing' : 'node.running', { ...nodeRoute(node), address }, node.updatedAt);
}

export function failedMessage(node: NodeRecord): BusMessage {
  return message('node.failed', { ...nodeRoute(node), reason: node.stateReason ?? '' }, node.updatedAt);
}

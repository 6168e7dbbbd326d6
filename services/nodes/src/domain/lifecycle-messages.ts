import { message, type BusMessage, type NodeAccess, type NodeRoute } from '@cloud/bus';
import { IMAGES } from '@cloud/chains';
import type { NodeCredential, NodeRecord } from '../data-access/node-record';

type LifecycleKind =
  'node.created' | 'node.credentials-changed' | 'node.access-changed' | 'node.stopping' | 'node.stopped' | 'node.starting' | 'node.deleting' | 'node.deleted';

/** What the node-proxy routes and authenticates the node's calls by, at the node's current revision. */
export function nodeRoute(node: NodeRecord): NodeRoute {
  return {
    nodeId: node.id,
    userId: node.userId,
    image: node.image,
    chain: IMAGES[node.image].chain,
    revision: node.revision,
    dev: node.dev,
    state: node.state,
    upstream: node.upstreamUrl,
    ...credentialFields(node),
  };
}

/** A node's or a pool's credentials, URL tokens and access rules as the proxy checks them. */
export function credentialFields(endpoint: {
  credentials: readonly NodeCredential[];
  access: NodeAccess | null;
}): Pick<NodeRoute, 'basic' | 'credentials' | 'tokens' | 'access'> {
  const basic = endpoint.credentials.filter((each) => each.kind === 'basic');
  const tokens = endpoint.credentials.filter((each) => each.kind === 'token');
  return {
    // A jwt node has no credentials; a Basic node keeps at least one, Basic or a URL token (then
    // `basic` is null and `tokens` is not empty). Only hashes travel, never a password or token.
    basic: basic[0] ? { user: basic[0].user, passwordSha256: basic[0].passwordSha256 } : null,
    credentials: basic.map(({ id, user, passwordSha256 }) => ({ id, user, passwordSha256 })),
    // Absent when there are none, as in a message from before URL tokens.
    ...(tokens.length > 0 ? { tokens: tokens.map(({ id, tokenSha256 }) => ({ id, tokenSha256 })) } : {}),
    ...(endpoint.access ? { access: endpoint.access } : {}),
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

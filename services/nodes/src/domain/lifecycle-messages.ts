import { message, type BusMessage } from '@cloud/bus';
import { IMAGES } from './images';
import type { NodeRecord } from './node';

type LifecycleKind = 'node.created' | 'node.credentials-changed' | 'node.deleting' | 'node.deleted';

/** The bus message announcing a node's change, at its new revision. */
export function lifecycleMessage(kind: LifecycleKind, node: NodeRecord): BusMessage {
  return message(kind, lifecyclePayload(node), node.updatedAt);
}

export function runningMessage(node: NodeRecord, address: string): BusMessage {
  return message('node.running', { ...lifecyclePayload(node), address }, node.updatedAt);
}

export function failedMessage(node: NodeRecord): BusMessage {
  return message('node.failed', { ...lifecyclePayload(node), reason: node.stateReason ?? '' }, node.updatedAt);
}

function lifecyclePayload(node: NodeRecord) {
  return { nodeId: node.id, userId: node.userId, image: node.image, chain: IMAGES[node.image].chain, revision: node.revision };
}

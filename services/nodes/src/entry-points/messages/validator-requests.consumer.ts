import type { Bus, Unsubscribe } from '@cloud/bus';
import type { NodeRegistry } from '../../domain/node-registry';

/** Creates and deletes the nodes of the staking service's validators (`validator.*`). */
export function consumeValidatorRequests(bus: Bus, nodes: NodeRegistry): Promise<Unsubscribe> {
  return bus.subscribe({
    queue: 'nodes.validators',
    handle: async (messages) => {
      for (const each of messages) {
        if (each.kind === 'validator.created') await nodes.createValidatorNode(each.payload);
        if (each.kind === 'validator.deleted') await nodes.deleteValidatorNode(each.payload.userId, each.payload.nodeId);
      }
    },
  });
}

import type { Bus, Unsubscribe } from '@cloud/bus';
import type { ValidatorsService } from '../../domain/validators';

/**
 * Follows the nodes of validators (`staking.node-changes`: every `node.*` message): their state,
 * and where their RPC answers, for reading the P-chain. Each message carries the node's route at
 * a revision, so a redelivered or late message changes nothing.
 */
export function consumeNodeChanges(bus: Bus, validators: ValidatorsService): Promise<Unsubscribe> {
  return bus.subscribe({
    queue: 'staking.node-changes',
    batchSize: 50,
    handle: async (messages) => {
      for (const each of messages) {
        // Every node.* message the queue takes carries the node's route (node.usage, which does
        // not, is not bound to it).
        if (each.kind.startsWith('node.') && 'revision' in each.payload) await validators.applyNodeRoute(each.payload);
      }
    },
  });
}

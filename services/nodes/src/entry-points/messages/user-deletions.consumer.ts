import type { Bus, Unsubscribe } from '@cloud/bus';
import type { NodeRegistry } from '../../domain/node-registry';

/** Deletes the nodes of every deleted user (`revocation.user-deleted`, from the accounts service). */
export function consumeUserDeletions(bus: Bus, nodes: NodeRegistry): Promise<Unsubscribe> {
  return bus.subscribe({
    queue: 'nodes.user-deletions',
    handle: async (messages) => {
      for (const each of messages) {
        if (each.kind === 'revocation.user-deleted') await nodes.deleteAllOf(each.payload.userId);
      }
    },
  });
}

import type { Bus, Unsubscribe } from '@cloud/bus';
import type { StreamsService } from '../../domain/streams';

/**
 * Ends the streams of a deleted node or pool, and every stream of a deleted user (`streams.ends`:
 * node.deleted, pool.deleted, revocation.user-deleted). Ending is idempotent, so a redelivered
 * message changes nothing.
 */
export function consumeStreamEnds(bus: Bus, streams: StreamsService): Promise<Unsubscribe> {
  return bus.subscribe({
    queue: 'streams.ends',
    handle: async (messages) => {
      for (const each of messages) {
        if (each.kind === 'node.deleted') await streams.endAllOfNode(each.payload.nodeId, 'node deleted');
        else if (each.kind === 'pool.deleted') await streams.endAllOfNode(each.payload.nodeId, 'pool deleted');
        else if (each.kind === 'revocation.user-deleted') await streams.endAllOfUser(each.payload.userId);
      }
    },
  });
}

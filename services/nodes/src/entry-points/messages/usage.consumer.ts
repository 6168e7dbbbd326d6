import type { Bus, Unsubscribe } from '@cloud/bus';
import type { UsageIngest } from '../../domain/usage-ingest';

/** Stores the node-proxy's usage counts (`node.usage`) in time buckets, each message once, and forgets a deleted user's (`revocation.user-deleted`). */
export function consumeUsage(bus: Bus, ingest: UsageIngest): Promise<Unsubscribe> {
  return bus.subscribe({ queue: 'nodes.usage', batchSize: 20, handle: (messages) => ingest.ingest(messages) });
}

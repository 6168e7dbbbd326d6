import { callEventsOf, type Bus, type Unsubscribe } from '@cloud/bus';
import type { CallEventBatches } from '../../domain/call-events';

/**
 * Stores the call events of every service (one per `call.recorded`, several per
 * `call.recorded-batch`), a batch of messages per insert. The batch is acknowledged only
 * after the insert commits, and a redelivered event is stored once (by its id).
 */
export function consumeCallEvents(bus: Bus, events: CallEventBatches, batchSize = 500): Promise<Unsubscribe> {
  return bus.subscribe({
    queue: 'accounts.call-events',
    batchSize,
    handle: (messages) => events.recordMany(messages.flatMap(callEventsOf)),
  });
}

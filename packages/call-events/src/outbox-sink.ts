import { message, type Outbox } from '@cloud/bus';
import type { Database } from '@cloud/db';
import type { CallEventSink } from './call-event';

/**
 * The sink of every service but accounts: the event goes into the service's own outbox, from
 * which the relay publishes it to the accounts service. A database write, not a network call,
 * so recording keeps working while the broker is away.
 */
export function outboxSink(outbox: Outbox, db: Database): CallEventSink {
  return {
    record: (event) => outbox.add(db, [message('call.recorded', event, new Date(event.createdAt))]),
  };
}

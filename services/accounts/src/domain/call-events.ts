import type { CallEvent } from '@cloud/call-events';
import { InvalidInputError } from '@cloud/http';
import { UnknownCursorError, type EventQuery, type EventsRepository } from '../data-access/events.repository';

/** Where a batch of call events is stored, each once (by id): the port of the bus consumer of call events. */
export interface CallEventBatches {
  recordMany(events: readonly CallEvent[]): Promise<void>;
}

/** The call events of every service, kept in the accounts database: stored in batches, read by their user. */
export class CallEventLog implements CallEventBatches {
  constructor(private readonly events: EventsRepository) {}

  /** Stores events, each once (by id); events of users that no longer exist are dropped. */
  recordMany(events: readonly CallEvent[]): Promise<void> {
    return this.events.recordMany(events);
  }

  /** The user's events, newest first; a `beforeId` that names no event of theirs is invalid input. */
  async list(query: EventQuery): Promise<CallEvent[]> {
    try {
      return await this.events.list(query);
    } catch (error) {
      if (error instanceof UnknownCursorError) throw new InvalidInputError('query.before: no such event of yours');
      throw error;
    }
  }
}

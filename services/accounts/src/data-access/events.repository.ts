import type { CallEvent, CallEventSink } from '@cloud/call-events';
import type { Database } from '@cloud/db';

interface EventRow {
  seq: string | number;
  id: string;
  user_id: string;
  service: string;
  input: CallEvent['input'];
  output: CallEvent['output'];
  service_data: CallEvent['serviceData'];
  created_at: Date;
}

const toEvent = (row: EventRow): CallEvent => ({
  id: row.id,
  user: row.user_id,
  service: row.service,
  input: row.input,
  output: row.output,
  serviceData: row.service_data,
  createdAt: row.created_at.toISOString(),
});

export interface EventQuery {
  userId: string;
  limit: number;
  /** Only events older than this event (by insertion order). */
  beforeId?: string;
  service?: string;
  since?: Date;
  until?: Date;
}

/** Thrown by `list` when the `before` cursor names no event of the user's. */
export class UnknownCursorError extends Error {}

export class EventsRepository implements CallEventSink {
  constructor(private readonly db: Database) {}

  /** Stores an event once: a second delivery of the same event id is ignored. */
  async record(event: CallEvent): Promise<void> {
    await this.recordMany([event]);
  }

  /**
   * Stores events in one insert, each once (by id), skipping events of users that no longer
   * exist, since a deleted user's events are deleted with them and must not come back. The users
   * are key-share locked until the insert commits, so a deletion cannot slip in between.
   */
  async recordMany(events: readonly CallEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.transaction(async (trx) => {
      const userIds = [...new Set(events.map((event) => event.user))];
      const existing = new Set((await trx('users').whereIn('id', userIds).forKeyShare().pluck('id')) as string[]);
      const rows = events
        .filter((event) => existing.has(event.user))
        .map((event) => ({
          id: event.id,
          user_id: event.user,
          service: event.service,
          input: JSON.stringify(event.input),
          output: JSON.stringify(event.output),
          service_data: JSON.stringify(event.serviceData),
          created_at: new Date(event.createdAt),
        }));
      if (rows.length > 0) await trx('events').insert(rows).onConflict('id').ignore();
    });
  }

  /** The user's events, newest first. */
  async list(query: EventQuery): Promise<CallEvent[]> {
    const select = this.db<EventRow>('events').where({ user_id: query.userId });
    if (query.beforeId !== undefined) {
      const cursor = await this.db<EventRow>('events').where({ id: query.beforeId, user_id: query.userId }).first('seq');
      if (!cursor) throw new UnknownCursorError(query.beforeId);
      void select.where('seq', '<', cursor.seq);
    }
    if (query.service !== undefined) void select.where({ service: query.service });
    if (query.since !== undefined) void select.where('created_at', '>=', query.since);
    if (query.until !== undefined) void select.where('created_at', '<', query.until);
    const rows = await select.orderBy('seq', 'desc').limit(query.limit);
    return rows.map(toEvent);
  }
}

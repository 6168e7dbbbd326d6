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
  /** false: only the calls not marked as a client's background read; true: only those; undefined: all. */
  background?: boolean;
}

// Events per insert statement.
const INSERT_CHUNK = 2000;

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
    // Packed messages can bring tens of thousands of events at once: a statement per chunk keeps
    // each parameter a few megabytes. A failure after some chunks is retried whole; the ids
    // keep the stored chunks from being stored twice.
    for (let offset = 0; offset < events.length; offset += INSERT_CHUNK) {
      await this.insertChunk(events.slice(offset, offset + INSERT_CHUNK));
    }
  }

  private async insertChunk(events: readonly CallEvent[]): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map((event) => ({
      id: event.id,
      user_id: event.user,
      service: event.service,
      input: event.input,
      output: event.output,
      service_data: event.serviceData,
      created_at: new Date(event.createdAt).toISOString(),
    }));
    // One statement with the batch as a single JSON parameter, in the batch's order: at thousands
    // of events a second this costs far less than a transaction around a users query and a
    // multi-row insert of seven parameters a row (bench/events-throughput.ts).
    await this.db.raw(
      `with batch as materialized (
         select * from rows from (jsonb_to_recordset(?::jsonb) as (id text, user_id text, service text, input jsonb,
           output jsonb, service_data jsonb, created_at timestamptz)) with ordinality as e(id, user_id, service, input, output,
           service_data, created_at, n)
       ), present as materialized (
         select id from users where id in (select user_id from batch) for key share
       )
       insert into events (id, user_id, service, input, output, service_data, created_at)
       select batch.id, batch.user_id, batch.service, batch.input, batch.output, batch.service_data, batch.created_at
       from batch join present on present.id = batch.user_id
       order by batch.n
       on conflict (id) do nothing`,
      [JSON.stringify(rows)],
    );
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
    if (query.background === true) void select.whereRaw(`(service_data->>'background') = 'true'`);
    if (query.background === false) void select.whereRaw(`(service_data->>'background') is distinct from 'true'`);
    const rows = await select.orderBy('seq', 'desc').limit(query.limit);
    return rows.map(toEvent);
  }
}

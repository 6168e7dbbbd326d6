// STAND-IN (branch i32-api): the reads, the log row and the replay the API needs; the delivery
// branch's data-access/deliveries.repository.ts (i32-deliver) replaces this file at merge.
import type { Database } from '@cloud/db';
import type { SequencedEvent, StreamEvent } from './stream-types';
import type { DeliveryAttemptView } from './stream-types';

interface DeliveryRow {
  delivery_id: string;
  attempt: number;
  first_seq: string | number | null;
  last_seq: string | number | null;
  events: number;
  outcome: DeliveryAttemptView['outcome'];
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  at: Date | string;
}

const nullableNumber = (value: string | number | null) => (value === null ? null : Number(value));

/** Rows of stream_events (the queue) and stream_deliveries (the log). */
export class DeliveriesRepository {
  constructor(private readonly db: Database) {}

  async log(streamId: string, limit: number): Promise<DeliveryAttemptView[]> {
    const rows = (await this.db('stream_deliveries').where({ stream_id: streamId }).orderBy('id', 'desc').limit(limit)) as DeliveryRow[];
    return rows.map((row) => ({
      deliveryId: row.delivery_id,
      attempt: row.attempt,
      firstSeq: nullableNumber(row.first_seq),
      lastSeq: nullableNumber(row.last_seq),
      events: row.events,
      outcome: row.outcome,
      statusCode: row.status_code,
      latencyMs: row.latency_ms,
      error: row.error,
      at: new Date(row.at),
    }));
  }

  async record(streamId: string, attempt: DeliveryAttemptView): Promise<void> {
    await this.db('stream_deliveries').insert({
      stream_id: streamId,
      delivery_id: attempt.deliveryId,
      attempt: attempt.attempt,
      first_seq: attempt.firstSeq,
      last_seq: attempt.lastSeq,
      events: attempt.events,
      outcome: attempt.outcome,
      status_code: attempt.statusCode,
      latency_ms: attempt.latencyMs,
      error: attempt.error,
      at: attempt.at,
    });
  }

  async deadLetters(streamId: string, limit: number): Promise<SequencedEvent[]> {
    const rows = (await this.db('stream_events').where({ stream_id: streamId, status: 'dead' }).orderBy('seq').limit(limit)) as Array<{
      seq: string | number;
      body: string;
    }>;
    return rows.map((row) => ({ ...(JSON.parse(row.body) as StreamEvent), seq: Number(row.seq) }));
  }

  async counts(streamId: string): Promise<{ pending: number; dead: number }> {
    const rows = (await this.db('stream_events')
      .where({ stream_id: streamId })
      .whereIn('status', ['pending', 'dead'])
      .groupBy('status')
      .select('status')
      .count({ n: '*' })) as Array<{
      status: string;
      n: string | number;
    }>;
    const of = (status: string) => Number(rows.find((row) => row.status === status)?.n ?? 0);
    return { pending: of('pending'), dead: of('dead') };
  }

  /** Dead events appended again at the end (new seqs, the same ids), under the stream's row lock. */
  async replayDeadLetters(streamId: string): Promise<number> {
    return this.db.transaction(async (trx) => {
      const stream = (await trx('streams').where({ id: streamId }).forUpdate().first('next_seq')) as { next_seq: string | number } | undefined;
      if (!stream) return 0;
      const dead = (await trx('stream_events').where({ stream_id: streamId, status: 'dead' }).orderBy('seq')) as Array<Record<string, unknown>>;
      if (dead.length === 0) return 0;
      const first = Number(stream.next_seq);
      await trx('stream_events').where({ stream_id: streamId, status: 'dead' }).delete();
      await trx('stream_events').insert(
        dead.map((row, index) => ({ ...row, seq: first + index, status: 'pending', delivered_at: null, created_at: new Date() })),
      );
      await trx('streams')
        .where({ id: streamId })
        .update({ next_seq: first + dead.length });
      return dead.length;
    });
  }
}

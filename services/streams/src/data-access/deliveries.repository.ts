import type { Database } from '@cloud/db';
import { toStreamRecord, type StreamRow } from './stream-record';
import type { DeliveryAttemptView, SequencedEvent, StreamEvent, StreamRecord } from './stream-types';

/** A stored event, as the delivery reads it. */
export interface PendingEvent {
  seq: number;
  id: string;
  /** The event's JSON without seq. */
  body: string;
}

const KEEP_LOG_ROWS = 1000;
const num = (value: string | number | null): number | null => (value === null ? null : Number(value));

/** stream_events as the delivery queue, the stream's retry state, and the log of attempts. */
export class DeliveriesRepository {
  constructor(private readonly db: Database) {}

  /** The next pending events after delivered_seq, in seq order, within the limits (one larger event alone). */
  async pendingBatch(streamId: string, deliveredSeq: number, maxEvents: number, maxBytes: number): Promise<PendingEvent[]> {
    const rows = await this.db('stream_events')
      .where({ stream_id: streamId, status: 'pending' })
      .andWhere('seq', '>', deliveredSeq)
      .orderBy('seq')
      .limit(maxEvents)
      .select<Array<{ seq: string | number; id: string; body: string }>>('seq', 'id', 'body');
    const batch: PendingEvent[] = [];
    let bytes = 0;
    for (const row of rows) {
      bytes += Buffer.byteLength(row.body) + 24;
      if (batch.length > 0 && bytes > maxBytes) break;
      batch.push({ seq: Number(row.seq), id: row.id, body: row.body });
    }
    return batch;
  }

  async markDelivered(streamId: string, lastSeq: number, now: Date): Promise<StreamRecord> {
    return this.db.transaction(async (trx) => {
      await trx('stream_events')
        .where({ stream_id: streamId, status: 'pending' })
        .andWhere('seq', '<=', lastSeq)
        .update({ status: 'delivered', delivered_at: now });
      return this.settle(trx, streamId, lastSeq, now);
    });
  }

  /** Parks the batch up to lastSeq as dead letters and moves the stream past it. */
  async park(streamId: string, lastSeq: number, now: Date): Promise<StreamRecord> {
    return this.db.transaction(async (trx) => {
      await trx('stream_events').where({ stream_id: streamId, status: 'pending' }).andWhere('seq', '<=', lastSeq).update({ status: 'dead' });
      return this.settle(trx, streamId, lastSeq, now);
    });
  }

  async recordFailure(
    streamId: string,
    failure: { attempts: number; failingSince: Date; nextAttemptAt: Date; error: string },
    now: Date,
  ): Promise<StreamRecord> {
    const [row] = await this.db('streams')
      .where({ id: streamId })
      .update({
        attempts: failure.attempts,
        failing_since: failure.failingSince,
        next_attempt_at: failure.nextAttemptAt,
        last_error: failure.error,
        updated_at: now,
      })
      .returning<StreamRow[]>('*');
    return toStreamRecord(row!);
  }

  /** Logs one attempt and keeps the last 1000 of the stream. */
  async recordAttempt(streamId: string, attempt: DeliveryAttemptView): Promise<void> {
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
    const cutoff = await this.db('stream_deliveries')
      .where({ stream_id: streamId })
      .orderBy('id', 'desc')
      .offset(KEEP_LOG_ROWS)
      .first<{ id: string | number } | undefined>('id');
    if (cutoff) await this.db('stream_deliveries').where({ stream_id: streamId }).andWhere('id', '<=', cutoff.id).delete();
  }

  /** The last attempts, newest first. */
  async log(streamId: string, limit: number): Promise<DeliveryAttemptView[]> {
    const rows = await this.db('stream_deliveries').where({ stream_id: streamId }).orderBy('id', 'desc').limit(limit);
    return rows.map((row) => ({
      deliveryId: row.delivery_id,
      attempt: row.attempt,
      firstSeq: num(row.first_seq),
      lastSeq: num(row.last_seq),
      events: row.events,
      outcome: row.outcome,
      statusCode: row.status_code,
      latencyMs: row.latency_ms,
      error: row.error,
      at: new Date(row.at),
    }));
  }

  async deadLetters(streamId: string, limit: number): Promise<SequencedEvent[]> {
    const rows = await this.db('stream_events').where({ stream_id: streamId, status: 'dead' }).orderBy('seq').limit(limit).select('seq', 'body');
    return rows.map((row) => ({ ...(JSON.parse(row.body) as StreamEvent), seq: Number(row.seq) }));
  }

  async counts(streamId: string): Promise<{ pending: number; dead: number }> {
    const rows = await this.db('stream_events')
      .where({ stream_id: streamId })
      .whereIn('status', ['pending', 'dead'])
      .groupBy('status')
      .select('status')
      .count<Array<{ status: string; n: string | number }>>({ n: '*' });
    const of = (status: string) => Number(rows.find((row) => row.status === status)?.n ?? 0);
    return { pending: of('pending'), dead: of('dead') };
  }

  /** Re-appends the dead letters at the end (new seqs under the row lock, the same ids), pending again. */
  async replayDeadLetters(streamId: string): Promise<number> {
    return this.db.transaction(async (trx) => {
      const stream = await trx('streams').where({ id: streamId }).forUpdate().first<{ next_seq: string | number } | undefined>('next_seq');
      if (!stream) return 0;
      const dead = await trx('stream_events').where({ stream_id: streamId, status: 'dead' }).orderBy('seq').select<Array<{ seq: string | number }>>('seq');
      let next = Number(stream.next_seq);
      for (const row of dead) {
        await trx('stream_events').where({ stream_id: streamId, seq: row.seq }).update({ seq: next, status: 'pending' });
        next += 1;
      }
      await trx('streams').where({ id: streamId }).update({ next_seq: next });
      return dead.length;
    });
  }

  async pruneDelivered(before: Date): Promise<number> {
    return this.db('stream_events').where({ status: 'delivered' }).andWhere('delivered_at', '<', before).delete();
  }

  private async settle(trx: Database, streamId: string, lastSeq: number, now: Date): Promise<StreamRecord> {
    const [row] = await trx('streams')
      .where({ id: streamId })
      .update({
        delivered_seq: trx.raw('GREATEST(delivered_seq, ?)', [lastSeq]),
        attempts: 0,
        failing_since: null,
        next_attempt_at: null,
        last_error: null,
        updated_at: now,
      })
      .returning<StreamRow[]>('*');
    return toStreamRecord(row!);
  }
}

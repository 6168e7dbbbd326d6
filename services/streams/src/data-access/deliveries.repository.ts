import type { Database, Executor } from '@cloud/db';
import { toStreamRecord, type StreamRow } from './stream-record';
import type { DeliveryAttemptView, SequencedEvent, StreamEvent, StreamRecord } from './stream-types';

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
const sequenced = (row: { seq: string | number; body: string }): SequencedEvent => ({ ...(JSON.parse(row.body) as StreamEvent), seq: Number(row.seq) });

/** Attempts kept in each stream's log. */
export const KEPT_ATTEMPTS = 1000;

/** A failed attempt's bookkeeping on the stream row. */
export interface FailureMark {
  attempts: number;
  failingSince: Date;
  nextAttemptAt: Date;
  lastError: string;
}

/** Rows of stream_events (the queue) and stream_deliveries (the log). */
export class DeliveriesRepository {
  constructor(private readonly db: Database) {}

  /** The first `limit` pending events after `afterSeq`, in seq order. */
  async pending(streamId: string, afterSeq: number, limit: number): Promise<SequencedEvent[]> {
    const rows = (await this.db('stream_events')
      .where({ stream_id: streamId, status: 'pending' })
      .andWhere('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .select('seq', 'body')) as Array<{ seq: string | number; body: string }>;
    return rows.map(sequenced);
  }

  /** The events up to `lastSeq` delivered, the stream past them and no longer failing. */
  async markDelivered(streamId: string, firstSeq: number, lastSeq: number, at: Date): Promise<StreamRecord> {
    return this.settle(streamId, firstSeq, lastSeq, { status: 'delivered', delivered_at: at }, at);
  }

  /** The events parked as dead letters (the user may replay them), the stream past them. */
  async park(streamId: string, firstSeq: number, lastSeq: number, at: Date): Promise<StreamRecord> {
    return this.settle(streamId, firstSeq, lastSeq, { status: 'dead' }, at);
  }

  async recordFailure(streamId: string, failure: FailureMark, at: Date): Promise<StreamRecord> {
    return this.updateStream(this.db, streamId, {
      attempts: failure.attempts,
      failing_since: failure.failingSince,
      next_attempt_at: failure.nextAttemptAt,
      last_error: failure.lastError,
      updated_at: at,
    });
  }

  /** Deletes delivered events older than `before` (dead letters stay until replayed). */
  async pruneDelivered(before: Date): Promise<number> {
    return this.db('stream_events').where({ status: 'delivered' }).andWhere('delivered_at', '<', before).delete();
  }

  private async settle(streamId: string, firstSeq: number, lastSeq: number, change: Record<string, unknown>, at: Date): Promise<StreamRecord> {
    return this.db.transaction(async (trx) => {
      await trx('stream_events').where({ stream_id: streamId, status: 'pending' }).whereBetween('seq', [firstSeq, lastSeq]).update(change);
      return this.updateStream(trx, streamId, {
        // delivered_seq only grows, whoever else moved it.
        delivered_seq: trx.raw('GREATEST(delivered_seq, ?)', [lastSeq]),
        attempts: 0,
        failing_since: null,
        next_attempt_at: null,
        last_error: null,
        updated_at: at,
      });
    });
  }

  private async updateStream(executor: Executor, streamId: string, values: Record<string, unknown>): Promise<StreamRecord> {
    const [row] = (await executor('streams').where({ id: streamId }).update(values).returning('*')) as StreamRow[];
    if (!row) throw new Error(`stream ${streamId} is gone`);
    return toStreamRecord(row);
  }

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

  /** One attempt logged; only the last KEPT_ATTEMPTS of the stream are kept. */
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
    const oldestKept = (await this.db('stream_deliveries')
      .where({ stream_id: streamId })
      .orderBy('id', 'desc')
      .offset(KEPT_ATTEMPTS - 1)
      .first('id')) as { id: string | number } | undefined;
    if (oldestKept) await this.db('stream_deliveries').where({ stream_id: streamId }).andWhere('id', '<', oldestKept.id).delete();
  }

  async deadLetters(streamId: string, limit: number): Promise<SequencedEvent[]> {
    const rows = (await this.db('stream_events').where({ stream_id: streamId, status: 'dead' }).orderBy('seq').limit(limit)) as Array<{
      seq: string | number;
      body: string;
    }>;
    return rows.map(sequenced);
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

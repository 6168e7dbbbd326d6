import type { Database, Executor, Migration, Transaction } from '@cloud/db';
import type { Logger } from '@cloud/logging';
import type { Bus } from './bus';
import { packCallEvents, type BusMessage, type MessageKind } from './messages';
import { WakeableTask } from './wakeable-task';

/** The outbox table; each producing service adds this migration to its own list. */
export const createOutbox: Migration = {
  name: '20261122100000_create_outbox',
  async up(db) {
    await db.schema.createTable('outbox', (t) => {
      t.bigIncrements('seq').primary();
      t.string('id', 128).notNullable().unique();
      t.string('kind', 64).notNullable();
      t.jsonb('payload').notNullable();
      t.timestamp('occurred_at', { useTz: true }).notNullable();
    });
  },
  async down(db) {
    await db.schema.dropTable('outbox');
  },
};

interface OutboxRow {
  seq: string | number;
  id: string;
  kind: MessageKind;
  payload: BusMessage['payload'];
  occurred_at: Date;
}

export interface OutboxOptions {
  db: Database;
  bus: Bus;
  logger: Logger;
  /** Rows published per round. */
  batchSize?: number;
  /** How often to look for rows nobody woke the relay for (another replica's, or left by a crash). */
  pollIntervalMs?: number;
}

/**
 * The transactional outbox: a message is written in the same database transaction as the change
 * it reports, so it exists if and only if the change does. The relay publishes rows in order and
 * deletes them once the bus has confirmed them; a crash between the two publishes a row twice,
 * which consumers absorb by de-duplicating on the message id. Replicas share the table safely:
 * each round locks its rows with SKIP LOCKED.
 */
export class Outbox {
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private failures = 0;
  private stopped = true;
  // After failures, back off (doubling, up to 5 s) rather than hammer a broker that is down, yet
  // notice soon that it is back.
  private readonly task = new WakeableTask(
    () => this.relay(),
    () => (this.failures === 0 ? this.pollIntervalMs : Math.min(this.pollIntervalMs * 2 ** this.failures, 5_000)),
  );

  constructor(private readonly options: OutboxOptions) {
    this.batchSize = options.batchSize ?? 500;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
  }

  /**
   * Adds messages inside the caller's transaction (or alone, given the database). The relay is
   * woken when the transaction commits.
   */
  async add(executor: Executor, messages: readonly BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await executor('outbox').insert(
      messages.map((message) => ({
        id: message.id,
        kind: message.kind,
        payload: JSON.stringify(message.payload),
        occurred_at: new Date(message.occurredAt),
      })),
    );
    if (isTransaction(executor)) {
      void executor.executionPromise.then(
        () => this.wake(),
        () => undefined,
      );
    } else {
      this.wake();
    }
  }

  start(): void {
    this.stopped = false;
    this.task.start();
  }

  /** Runs a relay round now (or right after the one running). */
  wake(): void {
    this.task.wake();
  }

  /** Publishes until the table is empty or the bus refuses. */
  private async relay(): Promise<void> {
    try {
      while ((await this.relayBatch()) === this.batchSize && !this.stopped);
      this.failures = 0;
    } catch (error) {
      this.failures += 1;
      if (this.failures === 1) this.options.logger.warn('outbox relay paused: could not publish', { error });
      else this.options.logger.debug('outbox relay still paused', { error, failures: this.failures });
    }
  }

  /** One round: the oldest unpublished rows, locked, published, deleted; returns how many. */
  async relayBatch(): Promise<number> {
    return this.options.db.transaction(async (trx) => {
      const rows = await trx<OutboxRow>('outbox').orderBy('seq').limit(this.batchSize).forUpdate().skipLocked();
      if (rows.length === 0) return 0;
      const messages = rows.map((row) => ({ id: row.id, kind: row.kind, payload: row.payload, occurredAt: row.occurred_at.toISOString() }) as BusMessage);
      await this.options.bus.publish(packCallEvents(messages));
      await trx('outbox')
        .whereIn(
          'seq',
          rows.map((row) => row.seq),
        )
        .delete();
      return rows.length;
    });
  }

  /** Stops the relay after the round in flight. Rows left stay for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.task.stop();
  }
}

function isTransaction(executor: Executor): executor is Transaction {
  return 'executionPromise' in executor;
}

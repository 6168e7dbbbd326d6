import type { Database, Executor } from '@cloud/db';
import { toStreamRecord, type StreamRow } from './stream-record';
import type { StreamRecord } from './stream-types';

/** A stream as created: what its owner chose, and its sealed signing secret. */
export interface NewStream {
  id: string;
  userId: string;
  nodeId: string;
  name: string;
  kind: StreamRecord['kind'];
  url: string;
  addresses: string[];
  topics: string[];
  secretSealed: string;
  fromHeight: number | null;
  at: Date;
}

/** What its owner may change in one go. */
export interface StreamChange {
  name?: string;
  url?: string;
}

/** Why a stream ended: its owner deleted it, or its node, pool or owner was deleted. */
export type EndedReason = 'deleted' | 'node deleted' | 'pool deleted' | 'user deleted';

/**
 * Rows of `streams` as the API sees them: its owner's streams that are not deleted (a deleted
 * stream stays as a row, with `deleted_at` and `ended_reason`, until its events are pruned).
 * Changes return the fresh record, or undefined when no visible row matched (knex-pglite reports
 * no row counts, so `returning` tells).
 */
export class StreamsRepository {
  constructor(private readonly db: Database) {}

  /** Serialises stream creations of one user until the transaction ends, so the count and the insert cannot interleave (the limit holds). */
  async lockUser(trx: Executor, userId: string): Promise<void> {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`streams:${userId}`]);
  }

  async countLive(executor: Executor, userId: string): Promise<number> {
    const [{ count }] = (await this.live(executor).where({ user_id: userId }).count({ count: '*' })) as [{ count: string | number }];
    return Number(count);
  }

  async insert(executor: Executor, stream: NewStream): Promise<StreamRecord> {
    const [row] = (await executor('streams')
      .insert({
        id: stream.id,
        user_id: stream.userId,
        node_id: stream.nodeId,
        name: stream.name,
        kind: stream.kind,
        url: stream.url,
        addresses: JSON.stringify(stream.addresses),
        topics: JSON.stringify(stream.topics),
        secret_sealed: stream.secretSealed,
        from_height: stream.fromHeight,
        created_at: stream.at,
        updated_at: stream.at,
      })
      .returning('*')) as StreamRow[];
    return toStreamRecord(row!);
  }

  /** The user's stream, unless it is deleted (or another user's). */
  async findVisible(userId: string, id: string, executor: Executor = this.db): Promise<StreamRecord | undefined> {
    const row = (await this.live(executor).where({ id, user_id: userId }).first()) as StreamRow | undefined;
    return row && toStreamRecord(row);
  }

  /** The same, locked until the transaction ends (a change reads, checks and writes it whole). */
  async findVisibleForUpdate(trx: Executor, userId: string, id: string): Promise<StreamRecord | undefined> {
    const row = (await this.live(trx).where({ id, user_id: userId }).forUpdate().first()) as StreamRow | undefined;
    return row && toStreamRecord(row);
  }

  /** The user's streams, oldest first. */
  async listVisible(userId: string): Promise<StreamRecord[]> {
    const rows = (await this.live()
      .where({ user_id: userId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])) as StreamRow[];
    return rows.map(toStreamRecord);
  }

  async update(executor: Executor, id: string, change: StreamChange, at: Date): Promise<StreamRecord | undefined> {
    return this.write(executor, id, { ...change, updated_at: at });
  }

  /**
   * Pauses or resumes. Resuming clears the retry time, so a failing batch is tried at once (its
   * attempts and `failing_since` stay: parking still counts from the first failure).
   */
  async setState(executor: Executor, id: string, state: StreamRecord['state'], at: Date): Promise<StreamRecord | undefined> {
    return this.write(executor, id, { state, updated_at: at, ...(state === 'active' ? { next_attempt_at: null } : {}) });
  }

  async replaceSecret(executor: Executor, id: string, secretSealed: string, at: Date): Promise<StreamRecord | undefined> {
    return this.write(executor, id, { secret_sealed: secretSealed, updated_at: at });
  }

  /** Ends one stream; its events and log go when the row is pruned. */
  async markDeleted(executor: Executor, id: string, reason: EndedReason, at: Date): Promise<StreamRecord | undefined> {
    return this.write(executor, id, { deleted_at: at, ended_reason: reason, lease_owner: null, lease_until: null, updated_at: at });
  }

  /** Ends every live stream following the node or pool; returns their ids. */
  async endAllOfNode(nodeId: string, reason: EndedReason, at: Date): Promise<string[]> {
    return this.endWhere({ node_id: nodeId }, reason, at);
  }

  /** Ends every live stream of the user; returns their ids. */
  async endAllOfUser(userId: string, at: Date): Promise<string[]> {
    return this.endWhere({ user_id: userId }, 'user deleted', at);
  }

  private async endWhere(where: Record<string, string>, reason: EndedReason, at: Date): Promise<string[]> {
    const rows = (await this.live()
      .where(where)
      .update({ deleted_at: at, ended_reason: reason, lease_owner: null, lease_until: null, updated_at: at })
      .returning('id')) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  private async write(executor: Executor, id: string, values: Record<string, unknown>): Promise<StreamRecord | undefined> {
    const [row] = (await this.live(executor).where({ id }).update(values).returning('*')) as StreamRow[];
    return row && toStreamRecord(row);
  }

  private live(executor: Executor = this.db) {
    return executor('streams').whereNull('deleted_at');
  }
}

import type { NodeAccess } from '@cloud/bus';
import type { ImageId } from '@cloud/chains';
import type { Database, Executor } from '@cloud/db';
import type { NodeCredential } from './node-record';
import type { PoolRecord } from './pool-record';

interface PoolRow {
  id: string;
  user_id: string;
  name: string;
  image: string;
  chain: string;
  dev: boolean;
  max_lag_blocks: number;
  credentials: NodeCredential[] | string;
  access: NodeAccess | string | null;
  revision: number;
  deleted: boolean;
  created_at: Date;
  updated_at: Date;
}

interface MemberRow {
  pool_id: string;
  node_id: string;
  position: number;
}

/** A jsonb column as the driver gives it: parsed by pg, text by some drivers. */
const fromJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

const toPool = (row: PoolRow, members: string[]): PoolRecord => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  image: row.image as ImageId,
  chain: row.chain,
  dev: row.dev,
  maxLagBlocks: row.max_lag_blocks,
  members,
  credentials: fromJson(row.credentials),
  access: row.access === null ? null : fromJson(row.access),
  revision: row.revision,
  deleted: row.deleted,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** What a pool's owner may change in one go: each given field replaces what the pool has (members as a whole). */
export interface PoolChange {
  name?: string;
  maxLagBlocks?: number;
  members?: string[];
}

/** Rows of `pools` and `pool_members`. Every change raises the pool's revision and is returned, members and all. */
export class PoolsRepository {
  constructor(private readonly db: Database) {}

  /** Serialises pool creations of one user until the transaction ends, so the count and the insert cannot interleave (the limit holds). */
  async lockUser(trx: Executor, userId: string): Promise<void> {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`pools:${userId}`]);
  }

  async countLive(executor: Executor, userId: string): Promise<number> {
    const [{ count }] = (await executor('pools').where({ user_id: userId, deleted: false }).count({ count: '*' })) as [{ count: string | number }];
    return Number(count);
  }

  async insert(executor: Executor, pool: PoolRecord): Promise<void> {
    await executor('pools').insert({
      id: pool.id,
      user_id: pool.userId,
      name: pool.name,
      image: pool.image,
      chain: pool.chain,
      dev: pool.dev,
      max_lag_blocks: pool.maxLagBlocks,
      // Stringified: knex would write a JS array as a PostgreSQL array.
      credentials: JSON.stringify(pool.credentials),
      access: pool.access === null ? null : JSON.stringify(pool.access),
      revision: pool.revision,
      deleted: pool.deleted,
      created_at: pool.createdAt,
      updated_at: pool.updatedAt,
    });
    await this.insertMembers(executor, pool.id, pool.members);
  }

  /** The user's pool, unless it is deleted (or another user's). */
  async findVisible(userId: string, id: string, executor: Executor = this.db): Promise<PoolRecord | undefined> {
    const row = await this.live(executor).where({ id, user_id: userId }).first();
    return row && (await this.withMembers(executor, [row]))[0];
  }

  /** The same, locked until the transaction ends (changes read, check and write the pool whole). */
  async findVisibleForUpdate(executor: Executor, userId: string, id: string): Promise<PoolRecord | undefined> {
    const row = await this.live(executor).where({ id, user_id: userId }).forUpdate().first();
    return row && (await this.withMembers(executor, [row]))[0];
  }

  /** The user's pools, oldest first. */
  async listVisible(userId: string): Promise<PoolRecord[]> {
    const rows = await this.live()
      .where({ user_id: userId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return this.withMembers(this.db, rows);
  }

  /** Up to `limit` pools not deleted, of every user, in id order, from the first id after `after`. */
  async listRoutable(after: string | undefined, limit: number): Promise<PoolRecord[]> {
    const rows = await this.live()
      .where('id', '>', after ?? '')
      .orderBy('id')
      .limit(limit);
    return this.withMembers(this.db, rows);
  }

  /** Changes a live pool's name, lag bound or members; the changed pool, or undefined if it is gone. */
  async update(executor: Executor, id: string, change: PoolChange, at: Date): Promise<PoolRecord | undefined> {
    const row = await this.bump(executor, id, at, {
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.maxLagBlocks === undefined ? {} : { max_lag_blocks: change.maxLagBlocks }),
    });
    if (!row) return undefined;
    if (change.members) {
      await executor('pool_members').where({ pool_id: id }).delete();
      await this.insertMembers(executor, id, change.members);
    }
    return (await this.withMembers(executor, [row]))[0];
  }

  /** Replaces a live pool's credentials or access rules; the changed pool, or undefined if it is gone. */
  async setRules(executor: Executor, id: string, rules: { credentials?: NodeCredential[]; access?: NodeAccess }, at: Date): Promise<PoolRecord | undefined> {
    const row = await this.bump(executor, id, at, {
      ...(rules.credentials ? { credentials: JSON.stringify(rules.credentials) } : {}),
      ...(rules.access ? { access: JSON.stringify(rules.access) } : {}),
    });
    return row && (await this.withMembers(executor, [row]))[0];
  }

  /** Deletes a live pool (its row stays, deleted); the deleted pool, or undefined if it was gone already. */
  async markDeleted(executor: Executor, id: string, at: Date): Promise<PoolRecord | undefined> {
    const row = await this.bump(executor, id, at, { deleted: true });
    return row && (await this.withMembers(executor, [row]))[0];
  }

  /** Deletes every live pool of the user (the user was deleted); the pools deleted. */
  async markAllDeleted(executor: Executor, userId: string, at: Date): Promise<PoolRecord[]> {
    const rows = (await this.live(executor)
      .where({ user_id: userId })
      .update({ deleted: true, revision: executor.raw('revision + 1'), updated_at: at })
      .returning('*')) as PoolRow[];
    return this.withMembers(executor, rows);
  }

  /** The node leaves every live pool it is in (it is being deleted); those pools, changed. */
  async removeMemberEverywhere(executor: Executor, nodeId: string, at: Date): Promise<PoolRecord[]> {
    const containing = executor('pool_members').select('pool_id').where({ node_id: nodeId });
    const rows = (await this.live(executor)
      .whereIn('id', containing)
      .update({ revision: executor.raw('revision + 1'), updated_at: at })
      .returning('*')) as PoolRow[];
    if (rows.length === 0) return [];
    await executor('pool_members')
      .where({ node_id: nodeId })
      .whereIn(
        'pool_id',
        rows.map((row) => row.id),
      )
      .delete();
    return this.withMembers(executor, rows);
  }

  private async bump(executor: Executor, id: string, at: Date, columns: Record<string, unknown>): Promise<PoolRow | undefined> {
    const rows = (await this.live(executor)
      .where({ id })
      .update({ ...columns, revision: executor.raw('revision + 1'), updated_at: at })
      .returning('*')) as PoolRow[];
    return rows[0];
  }

  private async insertMembers(executor: Executor, poolId: string, members: string[]): Promise<void> {
    if (members.length === 0) return;
    await executor('pool_members').insert(members.map((nodeId, position) => ({ pool_id: poolId, node_id: nodeId, position })));
  }

  private async withMembers(executor: Executor, rows: PoolRow[]): Promise<PoolRecord[]> {
    if (rows.length === 0) return [];
    const members = (await executor('pool_members')
      .whereIn(
        'pool_id',
        rows.map((row) => row.id),
      )
      .orderBy([{ column: 'pool_id' }, { column: 'position' }])) as MemberRow[];
    return rows.map((row) =>
      toPool(
        row,
        members.filter((member) => member.pool_id === row.id).map((member) => member.node_id),
      ),
    );
  }

  private live(executor: Executor = this.db) {
    return executor<PoolRow>('pools').where({ deleted: false });
  }
}

import type { Database, Executor } from '@cloud/db';
import { VALIDATOR_IMAGE_IDS, type ImageId } from '@cloud/chains';
import { DRIVEN_STATES, LIVE_STATES, type NodeRecord, type NodeState } from '../domain/node';

interface NodeRow {
  id: string;
  user_id: string;
  image: string;
  large: boolean;
  jwt: boolean;
  software: string;
  state: string;
  state_reason: string | null;
  node_user: string | null;
  node_password_hash: string | null;
  upstream_url: string | null;
  revision: number;
  created_at: Date;
  updated_at: Date;
}

const toNode = (row: NodeRow): NodeRecord => ({
  id: row.id,
  userId: row.user_id,
  image: row.image as ImageId,
  large: row.large,
  jwt: row.jwt,
  software: row.software,
  state: row.state as NodeState,
  stateReason: row.state_reason,
  nodeUser: row.node_user,
  nodePasswordHash: row.node_password_hash,
  upstreamUrl: row.upstream_url,
  revision: row.revision,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

export interface Transition {
  /** The change applies only if the node is in one of these states now. */
  from: readonly NodeState[];
  to: NodeState;
  reason?: string;
  /** Where the node answers, for a move to `running`; any other move clears it, since only a running node has one. */
  upstreamUrl?: string;
  at: Date;
}

/** Rows of the `nodes` table. Every change raises `revision`; `returning()` tells whether it applied (knex-pglite reports no row counts). */
export class NodesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Serialises node creations of one user until the transaction ends, so that counting the
   * user's nodes and inserting one cannot interleave with another creation (the limit holds).
   */
  async lockUser(trx: Executor, userId: string): Promise<void> {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`nodes:${userId}`]);
  }

  /** The user's nodes that count towards MAX_NODES_PER_USER: validators' nodes count towards the staking service's limit instead. */
  async countLive(executor: Executor, userId: string): Promise<number> {
    const [{ count }] = (await executor('nodes')
      .where({ user_id: userId })
      .whereIn('state', LIVE_STATES)
      .whereNotIn('image', VALIDATOR_IMAGE_IDS)
      .count({ count: '*' })) as [{ count: string | number }];
    return Number(count);
  }

  async insert(executor: Executor, node: NodeRecord): Promise<void> {
    await executor('nodes').insert({
      id: node.id,
      user_id: node.userId,
      image: node.image,
      large: node.large,
      jwt: node.jwt,
      software: node.software,
      state: node.state,
      state_reason: node.stateReason,
      node_user: node.nodeUser,
      node_password_hash: node.nodePasswordHash,
      upstream_url: node.upstreamUrl,
      revision: node.revision,
      created_at: node.createdAt,
      updated_at: node.updatedAt,
    });
  }

  /** The user's node, unless it is deleted (or another user's). */
  async findVisible(userId: string, id: string, executor: Executor = this.db): Promise<NodeRecord | undefined> {
    const row = await this.undeleted(executor).where({ id, user_id: userId }).first();
    return row && toNode(row);
  }

  /** Whether a node with this id was ever created, deleted or not. */
  async exists(executor: Executor, id: string): Promise<boolean> {
    return (await executor('nodes').where({ id }).first('id')) !== undefined;
  }

  /** The node, whoever owns it, unless it is deleted. */
  async findUndeleted(id: string): Promise<NodeRecord | undefined> {
    const row = await this.undeleted().where({ id }).first();
    return row && toNode(row);
  }

  async listVisible(userId: string): Promise<NodeRecord[]> {
    const rows = await this.undeleted()
      .where({ user_id: userId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(toNode);
  }

  /** Up to `limit` nodes not yet deleted, of every user, in id order, from the first id after `after`. */
  async listRoutable(after: string | undefined, limit: number): Promise<NodeRecord[]> {
    // '' comes before every id: the first page.
    const rows = await this.undeleted().where('id', '>', after ?? '').orderBy('id').limit(limit);
    return rows.map(toNode);
  }

  /** Moves the node to `to` if it is in one of `from`; the updated node, or undefined if it was not. */
  async transition(executor: Executor, id: string, change: Transition): Promise<NodeRecord | undefined> {
    const settled = change.to === 'failed' || change.to === 'deleted';
    const rows = (await executor('nodes')
      .where({ id })
      .whereIn('state', change.from)
      .update({
        state: change.to,
        state_reason: change.reason ?? null,
        upstream_url: change.upstreamUrl ?? null,
        revision: executor.raw('revision + 1'),
        updated_at: change.at,
        ...(change.to === 'deleted' ? { deleted_at: change.at } : {}),
        // Nothing is left for a driver to do: no instance needs to own it.
        ...(settled ? { owner: null, lease_expires_at: null } : {}),
      })
      .returning('*')) as NodeRow[];
    return rows[0] && toNode(rows[0]);
  }

  /** Every live node of the user becomes `deleting` (the user was deleted). */
  async markAllDeleting(executor: Executor, userId: string, at: Date): Promise<NodeRecord[]> {
    const rows = (await executor('nodes')
      .where({ user_id: userId })
      .whereIn('state', LIVE_STATES)
      .update({ state: 'deleting', state_reason: null, upstream_url: null, revision: executor.raw('revision + 1'), updated_at: at })
      .returning('*')) as NodeRow[];
    return rows.map(toNode);
  }

  /** A running node answers somewhere else now (another instance took it over, or its port changed); undefined if it no longer runs. */
  async setUpstream(executor: Executor, id: string, upstreamUrl: string, at: Date): Promise<NodeRecord | undefined> {
    const rows = (await executor('nodes')
      .where({ id, state: 'running' })
      .update({ upstream_url: upstreamUrl, revision: executor.raw('revision + 1'), updated_at: at })
      .returning('*')) as NodeRow[];
    return rows[0] && toNode(rows[0]);
  }

  async replaceCredentials(executor: Executor, id: string, nodeUser: string, passwordHash: string, at: Date): Promise<NodeRecord | undefined> {
    const rows = (await executor('nodes')
      .where({ id })
      .whereIn('state', LIVE_STATES)
      .update({ node_user: nodeUser, node_password_hash: passwordHash, revision: executor.raw('revision + 1'), updated_at: at })
      .returning('*')) as NodeRow[];
    return rows[0] && toNode(rows[0]);
  }

  /** Extends this instance's leases on the nodes it drives; the nodes it still owns. */
  async renewLeases(owner: string, leaseSeconds: number): Promise<NodeRecord[]> {
    const rows = (await this.db('nodes')
      .where({ owner })
      .whereIn('state', DRIVEN_STATES)
      .update({ lease_expires_at: this.leaseEnd(leaseSeconds) })
      .returning('*')) as NodeRow[];
    return rows.map(toNode);
  }

  /**
   * Takes up to `limit` nodes that need driving and have no live owner (new, or their owner's
   * lease ran out). SKIP LOCKED lets instances claim side by side without taking the same node.
   */
  async claimUnowned(owner: string, leaseSeconds: number, limit: number): Promise<NodeRecord[]> {
    const claimable = this.db('nodes')
      .select('id')
      .whereIn('state', DRIVEN_STATES)
      .where((q) => q.whereNull('owner').orWhere('lease_expires_at', '<', this.db.fn.now()))
      .orderBy('created_at')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    const rows = (await this.db('nodes')
      .whereIn('id', claimable)
      .update({ owner, lease_expires_at: this.leaseEnd(leaseSeconds) })
      .returning('*')) as NodeRow[];
    return rows.map(toNode);
  }

  /** Gives up this instance's leases (clean shutdown), so another instance takes the nodes at once. */
  async releaseLeases(owner: string): Promise<void> {
    await this.db('nodes').where({ owner }).update({ owner: null, lease_expires_at: null });
  }

  /** Who owns each node now (tests, operators). */
  async owners(): Promise<Map<string, string | null>> {
    const rows = (await this.db('nodes').select('id', 'owner')) as Array<{ id: string; owner: string | null }>;
    return new Map(rows.map((row) => [row.id, row.owner]));
  }

  private undeleted(executor: Executor = this.db) {
    return executor<NodeRow>('nodes').whereNot({ state: 'deleted' });
  }

  private leaseEnd(seconds: number) {
    return this.db.raw(`now() + ? * interval '1 second'`, [seconds]);
  }
}

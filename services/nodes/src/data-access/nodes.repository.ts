import type { Database, Executor } from '@cloud/db';
import { VALIDATOR_IMAGE_IDS, type ImageId } from '@cloud/chains';
import type { NodeAccess } from '@cloud/bus';
import {
  ANSWERING_STATES,
  DRIVEN_STATES,
  LIVE_STATES,
  type BasicNodeCredential,
  type NodeCredential,
  type NodeRecord,
  type NodeState,
  type SyncStatus,
} from './node-record';

interface NodeRow {
  id: string;
  name: string | null;
  user_id: string;
  image: string;
  large: boolean;
  jwt: boolean;
  dev: boolean;
  txindex: boolean;
  software: string;
  state: string;
  state_reason: string | null;
  start_after_stop: boolean;
  credentials: StoredCredential[] | string;
  access: NodeAccess | string | null;
  upstream_url: string | null;
  revision: number;
  sync_height: string | number | null;
  sync_best_known_height: string | number | null;
  sync_progress: number | null;
  sync_peers: number | null;
  sync_syncing: boolean | null;
  sync_checked_at: Date | null;
  lease_generation: number;
  created_at: Date;
  updated_at: Date;
}

const nullableNumber = (value: string | number | null): number | null => (value === null ? null : Number(value));

// bigint columns come back as strings from PostgreSQL.
const toSync = (row: NodeRow): SyncStatus | null =>
  row.sync_checked_at === null
    ? null
    : {
        height: nullableNumber(row.sync_height),
        bestKnownHeight: nullableNumber(row.sync_best_known_height),
        progress: row.sync_progress ?? 0,
        peers: row.sync_peers,
        syncing: row.sync_syncing ?? false,
        checkedAt: new Date(row.sync_checked_at),
      };

const syncColumns = (sync: SyncStatus) => ({
  sync_height: sync.height,
  sync_best_known_height: sync.bestKnownHeight,
  sync_progress: sync.progress,
  sync_peers: sync.peers,
  sync_syncing: sync.syncing,
  sync_checked_at: sync.checkedAt,
});

/** A credential as stored: one written before URL tokens has no kind, and is Basic. */
type StoredCredential = NodeCredential | Omit<BasicNodeCredential, 'kind'>;
const withKind = (credential: StoredCredential): NodeCredential => ('kind' in credential ? credential : { ...credential, kind: 'basic' });

const toNode = (row: NodeRow): NodeRecord => ({
  id: row.id,
  name: row.name,
  userId: row.user_id,
  image: row.image as ImageId,
  large: row.large,
  jwt: row.jwt,
  dev: row.dev,
  txindex: row.txindex,
  software: row.software,
  state: row.state as NodeState,
  stateReason: row.state_reason,
  startAfterStop: row.start_after_stop,
  credentials: fromJson(row.credentials).map(withKind),
  access: row.access === null ? null : withAnswerLimit(fromJson(row.access)),
  upstreamUrl: row.upstream_url,
  revision: row.revision,
  sync: toSync(row),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** Who drives a node: the instance, and the generation of its claim (raised by every claim). */
export interface Lease {
  owner: string;
  generation: number;
}

/** A node with the lease this instance holds on it. */
export type LeasedNode = NodeRecord & { lease: Lease };

const toLeased = (row: NodeRow & { owner: string }): LeasedNode => ({ ...toNode(row), lease: { owner: row.owner, generation: row.lease_generation } });

/** A jsonb column as the driver gives it: parsed by pg, text by some drivers. */
/** Rules stored before `maxAnswerBytes` existed have none: the operator's. */
const withAnswerLimit = (access: NodeAccess): NodeAccess => ({ ...access, maxAnswerBytes: access.maxAnswerBytes ?? null });

const fromJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export interface Transition {
  /** The change applies only if the node is in one of these states now. */
  from: readonly NodeState[];
  to: NodeState;
  reason?: string;
  /** Where the node answers, for a move to `running`; any other move clears it, since only a running node has one. */
  upstreamUrl?: string;
  /** For a move to `stopping`: start it again once stopped. Any other move clears it. */
  startAfterStop?: boolean;
  /** A new resource class, recorded with the move (a resize). */
  large?: boolean;
  /** Applies only while this lease is the node's current one (a reconciler's move: fenced). */
  lease?: Lease;
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
      name: node.name,
      user_id: node.userId,
      image: node.image,
      large: node.large,
      jwt: node.jwt,
      dev: node.dev,
      txindex: node.txindex,
      software: node.software,
      state: node.state,
      state_reason: node.stateReason,
      start_after_stop: node.startAfterStop,
      // Stringified: knex would write a JS array as a PostgreSQL array.
      credentials: JSON.stringify(node.credentials),
      access: node.access === null ? null : JSON.stringify(node.access),
      upstream_url: node.upstreamUrl,
      revision: node.revision,
      ...(node.sync ? syncColumns(node.sync) : {}),
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

  /**
   * The user's nodes among `ids` that are not deleted, locked against a change until the
   * transaction ends: a pool checks its members, and a node's deletion (which takes it out of its
   * pools) waits for the pool to be written, or the pool sees the node deleting.
   */
  async lockVisible(executor: Executor, userId: string, ids: readonly string[]): Promise<NodeRecord[]> {
    const rows = await this.undeleted(executor).where({ user_id: userId }).whereIn('id', ids).forShare();
    return rows.map(toNode);
  }

  /** These nodes as they are, deleted or not (a pool's members, for its record). */
  async findMany(ids: readonly string[]): Promise<NodeRecord[]> {
    if (ids.length === 0) return [];
    const rows = (await this.db<NodeRow>('nodes').whereIn('id', ids)) as NodeRow[];
    return rows.map(toNode);
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
    const rows = await this.undeleted()
      .where('id', '>', after ?? '')
      .orderBy('id')
      .limit(limit);
    return rows.map(toNode);
  }

  /** Moves the node to `to` if it is in one of `from`; the updated node, or undefined if it was not. */
  async transition(executor: Executor, id: string, change: Transition): Promise<NodeRecord | undefined> {
    const settled = change.to === 'failed' || change.to === 'stopped' || change.to === 'deleted';
    const rows = (await executor('nodes')
      .where({ id, ...fence(change.lease) })
      .whereIn('state', change.from)
      .update({
        state: change.to,
        state_reason: change.reason ?? null,
        upstream_url: change.upstreamUrl ?? null,
        start_after_stop: change.startAfterStop ?? false,
        ...(change.large === undefined ? {} : { large: change.large }),
        revision: executor.raw('revision + 1'),
        updated_at: change.at,
        ...(change.to === 'deleted' ? { deleted_at: change.at } : {}),
        // Nothing is left for a driver to do: no instance needs to own it.
        ...(settled ? { owner: null, lease_expires_at: null } : {}),
      })
      .returning('*')) as NodeRow[];
    return rows[0] && toNode(rows[0]);
  }

  /** Records a new resource class, the state unchanged (a stopped, failed or stopping node takes it when it starts). */
  async setLarge(executor: Executor, id: string, from: readonly NodeState[], large: boolean, at: Date): Promise<NodeRecord | undefined> {
    const rows = (await executor('nodes')
      .where({ id })
      .whereIn('state', from)
      .update({ large, revision: executor.raw('revision + 1'), updated_at: at })
      .returning('*')) as NodeRow[];
    return rows[0] && toNode(rows[0]);
  }

  /**
   * Renames the user's node unless it is deleting or deleted; the renamed node, or undefined. Not a
   * change of its route (the proxy does not know names): no new revision, no bus message.
   */
  async setName(executor: Executor, userId: string, id: string, name: string | null, at: Date): Promise<NodeRecord | undefined> {
    const rows = (await executor('nodes')
      .where({ id, user_id: userId })
      .whereNotIn('state', ['deleting', 'deleted'])
      .update({ name, updated_at: at })
      .returning('*')) as NodeRow[];
    return rows[0] && toNode(rows[0]);
  }

  /** Every live node of the user becomes `deleting` (the user was deleted). */
  async markAllDeleting(executor: Executor, userId: string, at: Date): Promise<NodeRecord[]> {
    const rows = (await executor('nodes')
      .where({ user_id: userId })
      .whereIn('state', LIVE_STATES)
      .update({ state: 'deleting', state_reason: null, upstream_url: null, start_after_stop: false, revision: executor.raw('revision + 1'), updated_at: at })
      .returning('*')) as NodeRow[];
    return rows.map(toNode);
  }

  /** An answering node answers somewhere else now (another instance took it over, or its port changed); undefined if it no longer answers. */
  async setUpstream(executor: Executor, id: string, upstreamUrl: string, at: Date, lease?: Lease): Promise<NodeRecord | undefined> {
    const rows = (await executor('nodes')
      .where({ id, ...fence(lease) })
      .whereIn('state', ANSWERING_STATES)
      .update({ upstream_url: upstreamUrl, revision: executor.raw('revision + 1'), updated_at: at })
      .returning('*')) as NodeRow[];
    return rows[0] && toNode(rows[0]);
  }

  /** What the node reported of its sync. Not a change of its route: no new revision, no message. */
  async recordSync(id: string, sync: SyncStatus): Promise<void> {
    await this.db('nodes')
      .where({ id })
      .whereIn('state', ['provisioning', ...ANSWERING_STATES])
      .update(syncColumns(sync));
  }

  /**
   * Locks the user's node until the transaction ends (credentials and access rules are read,
   * checked and written back whole), unless it is deleted or another user's.
   */
  async findVisibleForUpdate(executor: Executor, userId: string, id: string): Promise<NodeRecord | undefined> {
    const row = await this.undeleted(executor).where({ id, user_id: userId }).forUpdate().first();
    return row && toNode(row);
  }

  /** Replaces a live node's credentials or access rules; the updated node, or undefined if it is being deleted. */
  async setRules(executor: Executor, id: string, rules: { credentials?: NodeCredential[]; access?: NodeAccess }, at: Date): Promise<NodeRecord | undefined> {
    const rows = (await executor('nodes')
      .where({ id })
      .whereIn('state', LIVE_STATES)
      .update({
        ...(rules.credentials ? { credentials: JSON.stringify(rules.credentials) } : {}),
        ...(rules.access ? { access: JSON.stringify(rules.access) } : {}),
        revision: executor.raw('revision + 1'),
        updated_at: at,
      })
      .returning('*')) as NodeRow[];
    return rows[0] && toNode(rows[0]);
  }

  /**
   * Extends this instance's leases on the nodes it drives, expired or not (an expired lease nobody
   * claimed is still this instance's: no other drove the node meanwhile); the nodes it still owns.
   */
  async renewLeases(owner: string, leaseSeconds: number): Promise<LeasedNode[]> {
    const rows = (await this.db('nodes')
      .where({ owner })
      .whereIn('state', DRIVEN_STATES)
      .update({ lease_expires_at: this.leaseEnd(leaseSeconds) })
      .returning('*')) as Array<NodeRow & { owner: string }>;
    return rows.map(toLeased);
  }

  /**
   * Takes up to `limit` nodes that need driving and have no live owner (new, or their owner's
   * lease ran out). SKIP LOCKED lets instances claim side by side without taking the same node.
   */
  async claimUnowned(owner: string, leaseSeconds: number, limit: number): Promise<LeasedNode[]> {
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
      .update({ owner, lease_expires_at: this.leaseEnd(leaseSeconds), lease_generation: this.db.raw('lease_generation + 1') })
      .returning('*')) as Array<NodeRow & { owner: string }>;
    return rows.map(toLeased);
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

/** The condition that narrows an update to the node's current lease, when one is given. */
function fence(lease: Lease | undefined): Record<string, string | number> {
  return lease ? { owner: lease.owner, lease_generation: lease.generation } : {};
}

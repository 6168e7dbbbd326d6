import type { NodeRoute } from '@cloud/bus';
import type { ValidatorImageId } from '@cloud/chains';
import type { Database, Executor } from '@cloud/db';
import type { NodeState, ObservedRegistration, ValidatorRecord } from './validator-record';

interface ValidatorRow {
  id: string;
  user_id: string;
  chain: string;
  network: string;
  image: string;
  chain_node_id: string;
  certificate_pem: string;
  key_ciphertext: Uint8Array;
  key_iv: Uint8Array;
  key_auth_tag: Uint8Array;
  key_encryption_key_id: string;
  node_user: string;
  node_password_hash: string;
  node_state: string;
  node_state_reason: string | null;
  node_dev: boolean | null;
  node_revision: number;
  upstream_url: string | null;
  registration_tx_id: string | null;
  registration_start_at: Date | null;
  registration_end_at: Date | null;
  registration_stake: string | null;
  registration_observed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

const toRegistration = (row: ValidatorRow): ObservedRegistration | null =>
  row.registration_tx_id && row.registration_start_at && row.registration_end_at && row.registration_stake && row.registration_observed_at
    ? {
        txId: row.registration_tx_id,
        startTime: new Date(row.registration_start_at),
        endTime: new Date(row.registration_end_at),
        stake: row.registration_stake,
        observedAt: new Date(row.registration_observed_at),
      }
    : null;

// PostgreSQL's driver gives a bytea as a Buffer, PGlite's as a Uint8Array.
const toValidator = (row: ValidatorRow): ValidatorRecord => ({
  id: row.id,
  userId: row.user_id,
  chain: row.chain,
  network: row.network,
  image: row.image as ValidatorImageId,
  chainNodeId: row.chain_node_id,
  certificatePem: row.certificate_pem,
  stakingKey: {
    keyId: row.key_encryption_key_id,
    iv: Buffer.from(row.key_iv),
    ciphertext: Buffer.from(row.key_ciphertext),
    authTag: Buffer.from(row.key_auth_tag),
  },
  nodeUser: row.node_user,
  nodePasswordHash: row.node_password_hash,
  nodeState: row.node_state as NodeState,
  nodeStateReason: row.node_state_reason,
  nodeDev: row.node_dev,
  nodeRevision: row.node_revision,
  upstreamUrl: row.upstream_url,
  registration: toRegistration(row),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** Rows of the `validators` table; a deleted validator stays, with `deleted_at`, and is invisible to every lookup here. */
export class ValidatorsRepository {
  constructor(private readonly db: Database) {}

  /** Serialises validator creations of one user until the transaction ends, so the limit holds under concurrent creations. */
  async lockUser(trx: Executor, userId: string): Promise<void> {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`staking:${userId}`]);
  }

  async countUndeleted(executor: Executor, userId: string): Promise<number> {
    const [{ count }] = (await this.undeleted(executor).where({ user_id: userId }).count({ count: '*' })) as [{ count: string | number }];
    return Number(count);
  }

  async insert(executor: Executor, validator: ValidatorRecord): Promise<void> {
    await executor('validators').insert({
      id: validator.id,
      user_id: validator.userId,
      chain: validator.chain,
      network: validator.network,
      image: validator.image,
      chain_node_id: validator.chainNodeId,
      certificate_pem: validator.certificatePem,
      key_ciphertext: validator.stakingKey.ciphertext,
      key_iv: validator.stakingKey.iv,
      key_auth_tag: validator.stakingKey.authTag,
      key_encryption_key_id: validator.stakingKey.keyId,
      node_user: validator.nodeUser,
      node_password_hash: validator.nodePasswordHash,
      node_state: validator.nodeState,
      node_state_reason: validator.nodeStateReason,
      node_dev: validator.nodeDev,
      node_revision: validator.nodeRevision,
      upstream_url: validator.upstreamUrl,
      created_at: validator.createdAt,
      updated_at: validator.updatedAt,
    });
  }

  /** The user's validator on that network, unless it is deleted (or another user's, or on another network). */
  async findVisible(where: { userId: string; chain: string; network: string; id: string }, executor: Executor = this.db): Promise<ValidatorRecord | undefined> {
    const row = await this.undeleted(executor).where({ id: where.id, user_id: where.userId, chain: where.chain, network: where.network }).first();
    return row && toValidator(row);
  }

  /** The user's validators on that network, oldest first. */
  async listVisible(where: { userId: string; chain: string; network: string }): Promise<ValidatorRecord[]> {
    const rows = await this.undeleted()
      .where({ user_id: where.userId, chain: where.chain, network: where.network })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(toValidator);
  }

  /** The validator, whoever owns it, unless it is deleted. */
  async findUndeleted(id: string): Promise<ValidatorRecord | undefined> {
    const row = await this.undeleted().where({ id }).first();
    return row && toValidator(row);
  }

  /** Marks the validator deleted; undefined if it already was (or never existed). */
  async markDeleted(executor: Executor, id: string, at: Date): Promise<ValidatorRecord | undefined> {
    const rows = (await this.undeleted(executor).where({ id }).update({ deleted_at: at, updated_at: at }).returning('*')) as ValidatorRow[];
    return rows[0] && toValidator(rows[0]);
  }

  /** Marks every validator of the user deleted; their ids. */
  async markAllDeletedOf(userId: string, at: Date): Promise<string[]> {
    const rows = (await this.undeleted().where({ user_id: userId }).update({ deleted_at: at, updated_at: at }).returning('id')) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /**
   * Takes the node's state, upstream and Basic user from a route the nodes service announced, if
   * it is newer than what is held (messages may come twice or out of order). A route of a node
   * that is not a validator matches no row. Whether it applied.
   */
  async applyNodeRoute(route: NodeRoute & { reason?: string }, at: Date): Promise<boolean> {
    const rows = (await this.db('validators')
      .where({ id: route.nodeId })
      .where('node_revision', '<', route.revision)
      .update({
        node_state: route.state,
        node_state_reason: route.state === 'failed' ? (route.reason ?? null) : null,
        node_revision: route.revision,
        // A route from before `dev` was announced leaves what is known.
        ...(route.dev === undefined ? {} : { node_dev: route.dev }),
        upstream_url: route.upstream,
        // The nodes service may replace the node's Basic credentials (node.credentials-changed).
        ...(route.basic ? { node_user: route.basic.user, node_password_hash: route.basic.passwordSha256 } : {}),
        updated_at: at,
      })
      .returning('id')) as Array<{ id: string }>;
    return rows.length > 0;
  }

  /** Keeps the registration last read from the chain. */
  async recordRegistration(id: string, registration: ObservedRegistration): Promise<void> {
    await this.db('validators').where({ id }).update({
      registration_tx_id: registration.txId,
      registration_start_at: registration.startTime,
      registration_end_at: registration.endTime,
      registration_stake: registration.stake,
      registration_observed_at: registration.observedAt,
    });
  }

  private undeleted(executor: Executor = this.db) {
    return executor<ValidatorRow>('validators').whereNull('deleted_at');
  }
}

import type { Database, Executor } from '@cloud/db';

export interface ClientKey {
  id: string;
  userId: string;
  secretHash: string;
  createdAt: Date;
}

interface ClientKeyRow {
  id: string;
  user_id: string;
  secret_hash: string;
  created_at: Date;
}

const toClientKey = (row: ClientKeyRow): ClientKey => ({
  id: row.id,
  userId: row.user_id,
  secretHash: row.secret_hash,
  createdAt: row.created_at,
});

export class ClientKeysRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the key unless the user already has `limit` keys ('limit'), or their credentials
   * version is no longer `credentialsVersion` ('revoked': the password changed after the token
   * asking for the key was checked, and that change deleted the keys). The checks and the insert
   * run in one transaction that locks the user's row, so concurrent creations cannot pass the
   * limit, and a key cannot slip in beside a password change.
   */
  async insertWithinLimit(key: ClientKey, limit: number, credentialsVersion: number): Promise<'inserted' | 'limit' | 'revoked'> {
    return this.db.transaction(async (trx) => {
      const user = await trx('users').where({ id: key.userId, credentials_version: credentialsVersion }).forUpdate().first('id');
      if (!user) return 'revoked';
      const [{ count }] = (await trx('client_keys').where({ user_id: key.userId }).count({ count: '*' })) as [{ count: string | number }];
      if (Number(count) >= limit) return 'limit';
      await trx('client_keys').insert({ id: key.id, user_id: key.userId, secret_hash: key.secretHash, created_at: key.createdAt });
      return 'inserted';
    });
  }

  async findById(id: string): Promise<ClientKey | undefined> {
    const row = await this.db<ClientKeyRow>('client_keys').where({ id }).first();
    return row && toClientKey(row);
  }

  async listByUser(userId: string): Promise<ClientKey[]> {
    const rows = await this.db<ClientKeyRow>('client_keys')
      .where({ user_id: userId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(toClientKey);
  }

  /** Deletes the key if it belongs to the user; false when there is no such key of theirs. */
  async deleteOwned(id: string, userId: string, executor: Executor = this.db): Promise<boolean> {
    // returning() rather than the affected-row count: knex-pglite does not report the count.
    const deleted = await executor('client_keys').where({ id, user_id: userId }).delete().returning('id');
    return deleted.length > 0;
  }

  /** Deletes every key of the user; the ids of those it deleted, oldest first. */
  async deleteAllOf(userId: string, executor: Executor = this.db): Promise<string[]> {
    const deleted = (await executor('client_keys').where({ user_id: userId }).delete().returning(['id', 'created_at'])) as Array<{
      id: string;
      created_at: Date;
    }>;
    return deleted.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id)).map((row) => row.id);
  }
}

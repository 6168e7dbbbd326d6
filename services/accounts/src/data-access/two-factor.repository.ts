import type { Database, Transaction } from '@cloud/db';

/**
 * The two-factor state kept on `users` (secret, enabled time, last accepted step) and the
 * recovery codes. Every change that must happen once (a step, a recovery code, enabling) is a
 * single conditional statement, so two requests racing with the same code cannot both win.
 */
export class TwoFactorRepository {
  constructor(private readonly db: Database) {}

  /** Stores a new pending secret, replacing an earlier pending one; false if two-factor login is on already. */
  async setPending(userId: string, encryptedSecret: string, now: Date): Promise<boolean> {
    const updated = await this.db('users')
      .where({ id: userId })
      .whereNull('two_factor_enabled_at')
      .update({ two_factor_secret: encryptedSecret, two_factor_last_step: null, updated_at: now });
    return updated === 1;
  }

  /**
   * Turns the pending secret `encryptedSecret` on, with `step` used up and these recovery codes
   * (replacing any older ones), and raises the credentials version from `credentialsVersion`
   * (every token issued before stops working), in the caller's transaction. Resolves to the new
   * version, or undefined if it is no longer the pending secret or the version has moved on.
   */
  async enable(
    trx: Transaction,
    change: { userId: string; encryptedSecret: string; step: number; recoveryCodeHashes: string[]; credentialsVersion: number; now: Date },
  ): Promise<number | undefined> {
    const { userId, encryptedSecret, step, recoveryCodeHashes, credentialsVersion, now } = change;
    const [row] = (await trx('users')
      .where({ id: userId, two_factor_secret: encryptedSecret, credentials_version: credentialsVersion })
      .whereNull('two_factor_enabled_at')
      .update({ two_factor_enabled_at: now, two_factor_last_step: step, credentials_version: credentialsVersion + 1, updated_at: now })
      .returning('credentials_version')) as Array<{ credentials_version: number }>;
    if (!row) return undefined;
    await trx('recovery_codes').where({ user_id: userId }).delete();
    await trx('recovery_codes').insert(recoveryCodeHashes.map((hash) => ({ user_id: userId, code_hash: hash })));
    return row.credentials_version;
  }

  /** Records `step` as used if it is newer than every step used before; false for a replay. */
  async useStep(userId: string, step: number): Promise<boolean> {
    const updated = await this.db('users')
      .where({ id: userId })
      .whereNotNull('two_factor_enabled_at')
      .where((q) => void q.whereNull('two_factor_last_step').orWhere('two_factor_last_step', '<', step))
      .update({ two_factor_last_step: step });
    return updated === 1;
  }

  /** Marks an unused recovery code of the user used; false if there is none with this hash. */
  async useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
    const updated = await this.db('recovery_codes').where({ user_id: userId, code_hash: codeHash }).whereNull('used_at').update({ used_at: now });
    return updated === 1;
  }

  async unusedRecoveryCodes(userId: string): Promise<number> {
    const [row] = (await this.db('recovery_codes').where({ user_id: userId }).whereNull('used_at').count({ n: '*' })) as { n: string | number }[];
    return Number(row?.n ?? 0);
  }

  /** Turns two-factor login off: the secret and the recovery codes are deleted. */
  async disable(userId: string, now: Date): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('users').where({ id: userId }).update({ two_factor_secret: null, two_factor_enabled_at: null, two_factor_last_step: null, updated_at: now });
      await trx('recovery_codes').where({ user_id: userId }).delete();
    });
  }
}

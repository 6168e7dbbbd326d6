import type { Database, Executor } from '@cloud/db';

export interface PasswordReset {
  tokenHash: string;
  userId: string;
  credentialsVersion: number;
  expiresAt: Date;
  createdAt: Date;
}

interface PasswordResetRow {
  token_hash: string;
  user_id: string;
  credentials_version: number;
  expires_at: Date;
  created_at: Date;
}

/** Password-reset tokens (their SHA-256), see migration 20261125100000. */
export class PasswordResetsRepository {
  constructor(private readonly db: Database) {}

  /** Stores a new token and drops every earlier one of the user: only the newest link works. */
  async insert(reset: PasswordReset): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('password_resets').where({ user_id: reset.userId }).delete();
      await trx('password_resets').insert({
        token_hash: reset.tokenHash,
        user_id: reset.userId,
        credentials_version: reset.credentialsVersion,
        expires_at: reset.expiresAt,
        created_at: reset.createdAt,
      });
    });
  }

  /** The user's token with this hash, if it is unexpired and was issued at their current credentials version. */
  async findUsable(userId: string, tokenHash: string, credentialsVersion: number, now: Date): Promise<PasswordReset | undefined> {
    const row = await this.db<PasswordResetRow>('password_resets')
      .where({ user_id: userId, token_hash: tokenHash, credentials_version: credentialsVersion })
      .where('expires_at', '>', now)
      .first();
    return (
      row && {
        tokenHash: row.token_hash,
        userId: row.user_id,
        credentialsVersion: Number(row.credentials_version),
        expiresAt: row.expires_at,
        createdAt: row.created_at,
      }
    );
  }

  /**
   * Uses the token up: true if it was still usable. Every other token of the user goes with it,
   * so of several outstanding links exactly one works, once.
   */
  async consume(userId: string, tokenHash: string, credentialsVersion: number, now: Date, executor: Executor = this.db): Promise<boolean> {
    const used = await executor('password_resets')
      .where({ user_id: userId, token_hash: tokenHash, credentials_version: credentialsVersion })
      .where('expires_at', '>', now)
      .delete();
    if (used === 0) return false;
    await executor('password_resets').where({ user_id: userId }).delete();
    return true;
  }
}

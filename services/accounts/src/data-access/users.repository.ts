import type { Database, Executor } from '@cloud/db';

export interface BillingAddress {
  country: string;
  zipCode: string;
  address: string;
  state: string;
}

export interface User {
  id: string;
  email: string;
  passwordHash: string;
  displayName: string;
  entityType: string;
  billingAddress: BillingAddress;
  verifiedAt: Date | null;
  verificationTokenHash: string | null;
  verificationExpiresAt: Date | null;
  verificationSentAt: Date | null;
  credentialsVersion: number;
  /** The encrypted TOTP secret: pending while `twoFactorEnabledAt` is null, in force once it is set. */
  twoFactorSecret: string | null;
  twoFactorEnabledAt: Date | null;
  /** The newest TOTP time step accepted (replay protection). */
  twoFactorLastStep: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A row of `users` as stored (tests read rows to check what is kept, and what is not). */
export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  display_name: string;
  entity_type: string;
  billing_address: BillingAddress;
  verified_at: Date | null;
  verification_token_hash: string | null;
  verification_expires_at: Date | null;
  verification_sent_at: Date | null;
  credentials_version: number;
  two_factor_secret: string | null;
  two_factor_enabled_at: Date | null;
  two_factor_last_step: string | number | null;
  created_at: Date;
  updated_at: Date;
}

export const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  passwordHash: row.password_hash,
  displayName: row.display_name,
  entityType: row.entity_type,
  billingAddress: row.billing_address,
  verifiedAt: row.verified_at,
  verificationTokenHash: row.verification_token_hash,
  verificationExpiresAt: row.verification_expires_at,
  verificationSentAt: row.verification_sent_at,
  credentialsVersion: Number(row.credentials_version),
  twoFactorSecret: row.two_factor_secret,
  twoFactorEnabledAt: row.two_factor_enabled_at,
  twoFactorLastStep: row.two_factor_last_step === null ? null : Number(row.two_factor_last_step),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const COLUMNS: Record<keyof User, keyof UserRow> = {
  id: 'id',
  email: 'email',
  passwordHash: 'password_hash',
  displayName: 'display_name',
  entityType: 'entity_type',
  billingAddress: 'billing_address',
  verifiedAt: 'verified_at',
  verificationTokenHash: 'verification_token_hash',
  verificationExpiresAt: 'verification_expires_at',
  verificationSentAt: 'verification_sent_at',
  credentialsVersion: 'credentials_version',
  twoFactorSecret: 'two_factor_secret',
  twoFactorEnabledAt: 'two_factor_enabled_at',
  twoFactorLastStep: 'two_factor_last_step',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

function toRow(fields: Partial<User>): Partial<Record<keyof UserRow, unknown>> {
  const row: Partial<Record<keyof UserRow, unknown>> = {};
  for (const [key, value] of Object.entries(fields) as [keyof User, unknown][]) {
    row[COLUMNS[key]] = key === 'billingAddress' ? JSON.stringify(value) : value;
  }
  return row;
}

/** Thrown by `insert` when the e-mail address is taken (a unique-constraint violation). */
export class DuplicateEmailError extends Error {}

const UNIQUE_VIOLATION = '23505';

export class UsersRepository {
  constructor(private readonly db: Database) {}

  async insert(user: User): Promise<void> {
    try {
      await this.db('users').insert(toRow(user));
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new DuplicateEmailError(user.email);
      throw error;
    }
  }

  async findById(id: string): Promise<User | undefined> {
    const row = await this.db<UserRow>('users').where({ id }).first();
    return row && toUser(row);
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const row = await this.db<UserRow>('users').where({ email: email.toLowerCase() }).first();
    return row && toUser(row);
  }

  async update(id: string, fields: Partial<Omit<User, 'id'>>): Promise<User | undefined> {
    const [row] = (await this.db('users').where({ id }).update(toRow(fields)).returning('*')) as UserRow[];
    return row && toUser(row);
  }

  /**
   * Sets a new password hash and raises the credentials version, revoking every token issued
   * before. Only succeeds if the version is still `expectedVersion`, so two concurrent changes
   * can't both win.
   */
  async changePassword(id: string, expectedVersion: number, passwordHash: string, now: Date, executor: Executor = this.db): Promise<User | undefined> {
    const [row] = (await executor('users')
      .where({ id, credentials_version: expectedVersion })
      .update({ password_hash: passwordHash, credentials_version: expectedVersion + 1, updated_at: now })
      .returning('*')) as UserRow[];
    return row && toUser(row);
  }

  /**
   * Deletes the user, their client keys (by cascade) and their events; false if there was no such
   * user. The user's row is locked first, so an event batch being stored for them (which holds a
   * key-share lock on it, see EventsRepository.recordMany) either lands before and is deleted, or
   * waits and finds the user gone.
   */
  async delete(id: string, executor: Executor = this.db): Promise<boolean> {
    const locked = await executor('users').where({ id }).forUpdate().first('id');
    if (!locked) return false;
    await executor('events').where({ user_id: id }).delete();
    await executor('users').where({ id }).delete();
    return true;
  }

  /** Marks the user verified if `tokenHash` is their current, unexpired token; single use. */
  async consumeVerificationToken(id: string, tokenHash: string, now: Date): Promise<User | undefined> {
    const [row] = (await this.db('users')
      .where({ id, verification_token_hash: tokenHash })
      .whereNull('verified_at')
      .where('verification_expires_at', '>', now)
      .update({ verified_at: now, verification_token_hash: null, verification_expires_at: null, updated_at: now })
      .returning('*')) as UserRow[];
    return row && toUser(row);
  }
}

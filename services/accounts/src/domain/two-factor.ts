import type { Clock } from '@cloud/auth';
import { ConflictError, ForbiddenError } from '@cloud/http';
import type { TwoFactorRepository } from '../data-access/two-factor.repository';
import { newTotpSecret, totpStep, totpUri } from './totp';
import { newRecoveryCodes, type TwoFactorCrypto } from './two-factor-crypto';
import type { UsersService } from './users';

export const RECOVERY_CODE_COUNT = 10;

export interface TwoFactorDependencies {
  users: UsersService;
  repo: TwoFactorRepository;
  crypto: TwoFactorCrypto;
  clock: Clock;
  /** The issuer authenticator apps show (TWO_FACTOR_ISSUER). */
  issuer: string;
}

export interface TwoFactorStatus {
  enabled: boolean;
  /** Enrolled but not confirmed yet. */
  pending: boolean;
  recoveryCodesLeft: number;
}

const notEnabled = () => new ConflictError('two-factor login is off for this account', 'TwoFactorNotEnabled');
const enabledAlready = () => new ConflictError('two-factor login is on already; turn it off first to enrol a new authenticator', 'TwoFactorEnabled');

/** Turning two-factor login on (enrol, then confirm with a first code) and off. */
export class TwoFactorService {
  constructor(private readonly deps: TwoFactorDependencies) {}

  private now(): Date {
    return new Date(this.deps.clock());
  }

  async status(userId: string): Promise<TwoFactorStatus> {
    const user = await this.deps.users.getUser(userId);
    const enabled = user.twoFactorEnabledAt !== null;
    return {
      enabled,
      pending: !enabled && user.twoFactorSecret !== null,
      recoveryCodesLeft: enabled ? await this.deps.repo.unusedRecoveryCodes(userId) : 0,
    };
  }

  /**
   * Makes a new secret, kept pending (encrypted) until a code from it is confirmed; the password
   * is asked first, so a stolen account token alone cannot lock the owner out with someone else's
   * authenticator. A second enrolment replaces a pending secret.
   */
  async enrol(userId: string, password: string, address: string | undefined): Promise<{ secret: string; uri: string }> {
    const user = await this.deps.users.getUser(userId);
    await this.deps.users.confirmPassword(user, password, address, 'the password is wrong');
    if (user.twoFactorEnabledAt) throw enabledAlready();
    const secret = newTotpSecret();
    if (!(await this.deps.repo.setPending(user.id, this.deps.crypto.encrypt(user.id, secret), this.now()))) throw enabledAlready();
    return { secret, uri: totpUri(secret, this.deps.issuer, user.email) };
  }

  /** Turns the pending secret on with a code from it; returns the recovery codes, shown this once. */
  async confirm(userId: string, code: string): Promise<string[]> {
    const user = await this.deps.users.getUser(userId);
    if (user.twoFactorEnabledAt) throw enabledAlready();
    if (!user.twoFactorSecret) throw new ConflictError('nothing to confirm: enrol first (POST /users/me/two-factor)', 'TwoFactorNotPending');
    const step = totpStep(this.deps.crypto.decrypt(user.id, user.twoFactorSecret), code.replace(/\s/g, ''), this.deps.clock());
    if (step === undefined) throw new ForbiddenError('the code is wrong: check the authenticator app and its clock', 'InvalidTwoFactorCode');
    const codes = newRecoveryCodes(RECOVERY_CODE_COUNT);
    const hashes = codes.map((recoveryCode) => this.deps.crypto.hashRecoveryCode(recoveryCode));
    // The confirming code's step counts as used, so the same code cannot log in afterwards.
    if (!(await this.deps.repo.enable(user.id, user.twoFactorSecret, step, hashes, this.now()))) {
      throw new ConflictError('the enrolment changed while confirming it; enrol again', 'TwoFactorNotPending');
    }
    return codes;
  }

  /** Turns two-factor login off after checking the password and a code (or a recovery code). */
  async disable(userId: string, password: string, code: string, address: string | undefined): Promise<void> {
    const user = await this.deps.users.getUser(userId);
    if (!user.twoFactorEnabledAt) throw notEnabled();
    await this.deps.users.confirmPassword(user, password, address, 'the password is wrong', { code });
    await this.deps.repo.disable(user.id, this.now());
  }
}

import { ConflictError, ForbiddenError } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import type { Mailer } from '../data-access/mailer';
import type { TwoFactorRepository } from '../data-access/two-factor.repository';
import { sendCredentialsEndedEmail } from './credentials-ended-email';
import { endStandingCredentials, type EndedCredentials, type StandingCredentialsDependencies } from './standing-credentials';
import { newTotpSecret, totpStep, totpUri } from './totp';
import { newRecoveryCodes, type TwoFactorCrypto } from './two-factor-crypto';
import type { UsersService } from './users';

export const RECOVERY_CODE_COUNT = 10;

export interface TwoFactorDependencies extends StandingCredentialsDependencies {
  users: UsersService;
  repo: TwoFactorRepository;
  crypto: TwoFactorCrypto;
  mailer: Mailer;
  logger: Logger;
  /** The issuer authenticator apps show (TWO_FACTOR_ISSUER). */
  issuer: string;
}

export interface TwoFactorConfirmation {
  /** Shown this once. */
  recoveryCodes: string[];
  /** A fresh account token: turning it on ends every token issued before, this session's too. */
  accessToken: string;
  ended: EndedCredentials;
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

  /**
   * Turns the pending secret on with a code from it. Like a new password, it ends every standing
   * credential the password alone could have made (every token issued before, every client key),
   * so whoever had only the password is out; the caller gets a fresh account token, the recovery
   * codes (shown this once) and what ended, and the owner an e-mail saying it.
   */
  async confirm(userId: string, code: string): Promise<TwoFactorConfirmation> {
    const user = await this.deps.users.getUser(userId);
    if (user.twoFactorEnabledAt) throw enabledAlready();
    const encryptedSecret = user.twoFactorSecret;
    if (!encryptedSecret) throw new ConflictError('nothing to confirm: enrol first (POST /users/me/two-factor)', 'TwoFactorNotPending');
    const step = totpStep(this.deps.crypto.decrypt(user.id, encryptedSecret), code.replace(/\s/g, ''), this.deps.clock());
    if (step === undefined) throw new ForbiddenError('the code is wrong: check the authenticator app and its clock', 'InvalidTwoFactorCode');
    const recoveryCodes = newRecoveryCodes(RECOVERY_CODE_COUNT);
    const recoveryCodeHashes = recoveryCodes.map((recoveryCode) => this.deps.crypto.hashRecoveryCode(recoveryCode));
    // The confirming code's step counts as used, so the same code cannot log in afterwards.
    const ended = await endStandingCredentials(this.deps, user.id, (trx, now) =>
      this.deps.repo.enable(trx, { userId: user.id, encryptedSecret, step, recoveryCodeHashes, credentialsVersion: user.credentialsVersion, now }),
    );
    if (!ended) throw new ConflictError('the enrolment or the password changed while confirming it; enrol again', 'TwoFactorNotPending');
    await sendCredentialsEndedEmail(this.deps, user, 'two-factor-enabled', ended);
    return { recoveryCodes, accessToken: await this.deps.users.issueAccountToken(user.id), ended };
  }

  /** Turns two-factor login off after checking the password and a code (or a recovery code). */
  async disable(userId: string, password: string, code: string, address: string | undefined): Promise<void> {
    const user = await this.deps.users.getUser(userId);
    if (!user.twoFactorEnabledAt) throw notEnabled();
    await this.deps.users.confirmPassword(user, password, address, 'the password is wrong', { code });
    await this.deps.repo.disable(user.id, this.now());
  }
}

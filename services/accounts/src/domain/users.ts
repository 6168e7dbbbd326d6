import { randomUUID } from 'node:crypto';
import type { TokenSigner } from '@cloud/auth';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import type { Mailer } from '../data-access/mailer';
import { DuplicateEmailError, type BillingAddress, type User } from '../data-access/users.repository';
import { randomUrlToken, sha256Hex } from './credentials';
import type { AttemptLimit } from './attempt-limit';
import type { LoginThrottle } from './login-throttle';
import { sendCredentialsEndedEmail } from './credentials-ended-email';
import { replacePassword, type PasswordChangeDependencies } from './password-change';
import { passwordWeakness } from './passwords';
import { secondFactorRefusal, type TwoFactorCodes } from './two-factor-codes';
import { EMPTY_BILLING_ADDRESS } from './profile';
import type { EndedCredentials } from './standing-credentials';
import type { EmailLinks } from './email-links';
import { verificationEmail } from './verification-email';

export interface SignUpInput {
  email: string;
  password: string;
  displayName: string;
  billingAddress?: Partial<BillingAddress>;
}

export interface ProfileUpdate {
  displayName?: string;
  billingAddress?: Partial<BillingAddress>;
}

/** What a password change takes (the users and client keys, the hasher, revocations, the clock), and more. */
export interface UsersDependencies extends PasswordChangeDependencies {
  throttle: LoginThrottle;
  secondFactor: TwoFactorCodes;
  /** Sign-ups per client address. */
  signUpLimit: AttemptLimit;
  signer: TokenSigner;
  mailer: Mailer;
  logger: Logger;
  /** Where the verification e-mail's links point. */
  links: EmailLinks;
  verificationTtlHours: number;
  verificationResendSeconds: number;
}

const WRONG_CREDENTIALS = 'wrong user id, e-mail or password';

/** Sign-up, e-mail verification, login, profile and password: the rules of a user account. */
export class UsersService {
  constructor(private readonly deps: UsersDependencies) {}

  private now(): Date {
    return new Date(this.deps.clock());
  }

  async signUp(input: SignUpInput, address: string | undefined): Promise<User> {
    if (address) await this.deps.signUpLimit.take(address);
    const email = input.email.toLowerCase();
    const weakness = passwordWeakness(input.password, email);
    if (weakness) throw new InvalidInputError(`body.password: ${weakness}`);
    const now = this.now();
    const { token, ...verification } = this.newVerification(now);
    const user: User = {
      id: `user-${randomUUID()}`,
      email,
      passwordHash: await this.deps.passwords.hash(input.password),
      displayName: input.displayName,
      entityType: 'individual',
      billingAddress: { ...EMPTY_BILLING_ADDRESS, ...input.billingAddress },
      verifiedAt: null,
      ...verification,
      credentialsVersion: 0,
      twoFactorSecret: null,
      twoFactorEnabledAt: null,
      twoFactorLastStep: null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.deps.users.insert(user);
    } catch (error) {
      if (error instanceof DuplicateEmailError) throw new ConflictError('a user with this e-mail address exists');
      throw error;
    }
    await this.sendVerification(user, token);
    return user;
  }

  /** A user named by id (`user-…`) or e-mail address, as the spec allows for login and verification. */
  async findByIdOrEmail(reference: string): Promise<User | undefined> {
    if (reference.startsWith('user-')) return this.deps.users.findById(reference);
    if (reference.includes('@')) return this.deps.users.findByEmail(reference);
    return undefined;
  }

  async verifyEmail(user: User | undefined, token: string): Promise<User> {
    if (!user) throw new NotFoundError('no such user');
    if (user.verifiedAt) throw new ConflictError('the user is verified already', 'UserVerified');
    const verified = await this.deps.users.consumeVerificationToken(user.id, sha256Hex(token), this.now());
    if (!verified) throw new NotFoundError('the verification token is wrong, used or expired');
    return verified;
  }

  /** Sends a new token (the old one stops working), at most once per resend interval. */
  async resendVerification(user: User | undefined): Promise<void> {
    if (!user) throw new NotFoundError('no such user');
    if (user.verifiedAt) throw new ConflictError('the user is verified already', 'UserVerified');
    const now = this.now();
    const nextAllowed = (user.verificationSentAt?.getTime() ?? 0) + this.deps.verificationResendSeconds * 1000;
    if (now.getTime() < nextAllowed) {
      throw new TooManyRequestsError('a verification e-mail was sent moments ago', (nextAllowed - now.getTime()) / 1000);
    }
    const { token, ...verification } = this.newVerification(now);
    const updated = await this.deps.users.update(user.id, verification);
    await this.sendVerification(updated ?? user, token);
  }

  /** A single-use verification token sent at `now`, and the fields that keep only its hash. */
  private newVerification(now: Date) {
    const token = randomUrlToken();
    return {
      token,
      verificationTokenHash: sha256Hex(token),
      verificationExpiresAt: new Date(now.getTime() + this.deps.verificationTtlHours * 3_600_000),
      verificationSentAt: now,
    };
  }

  private accountTokenFor(user: User): string {
    return this.deps.signer.sign('account', { sub: user.id, ver: user.credentialsVersion }).token;
  }

  // A failed send is logged, not thrown: the account exists and the user can ask for a new e-mail.
  private async sendVerification(user: User, token: string): Promise<void> {
    const message = verificationEmail({
      to: user.email,
      userId: user.id,
      token,
      links: this.deps.links.verification(user.id, token),
      validHours: this.deps.verificationTtlHours,
    });
    try {
      await this.deps.mailer.send(message);
      this.deps.logger.info('verification e-mail sent', { userId: user.id });
    } catch (error) {
      this.deps.logger.error('could not send the verification e-mail', { userId: user.id, error });
    }
  }

  /**
   * Checks a login (POST /auth) and returns the user id. `user` is who `login` names, if anyone;
   * `code` is the second factor, needed when the user has two-factor login on. Failures count
   * towards the throttle; an unverified user learns it only with the right password.
   */
  async authenticate(user: User | undefined, login: string, password: string, address: string | undefined, code?: string): Promise<string> {
    const known = await this.throttled(user?.id ?? login, address, async () => {
      const passwordMatches = await this.deps.passwords.verify(password, user?.passwordHash);
      if (!passwordMatches || !user) throw new UnauthorizedError(WRONG_CREDENTIALS);
      await this.requireSecondFactor(user, code, 401);
      return user;
    });
    if (!known.verifiedAt) throw new ForbiddenError('verify your e-mail address before logging in', 'UserNotVerified');
    return known.id;
  }

  /** A login whose credentials could not even be read counts against its address. */
  countMalformedLogin(address: string | undefined): Promise<void> {
    return this.deps.throttle.countFailure(undefined, address);
  }

  /** A new 12-hour account access token. */
  async issueAccountToken(userId: string): Promise<string> {
    return this.accountTokenFor(await this.getUser(userId));
  }

  async getUser(userId: string): Promise<User> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw new NotFoundError('no such user');
    return user;
  }

  async updateProfile(userId: string, update: ProfileUpdate): Promise<User> {
    const user = await this.getUser(userId);
    const updated = await this.deps.users.update(userId, {
      ...(update.displayName === undefined ? {} : { displayName: update.displayName }),
      ...(update.billingAddress === undefined ? {} : { billingAddress: { ...user.billingAddress, ...update.billingAddress } }),
      updatedAt: this.now(),
    });
    if (!updated) throw new NotFoundError('no such user');
    return updated;
  }

  /**
   * Changes the password after checking the old one. Every token issued before stops working and
   * every client key is deleted (`replacePassword`); the caller gets a fresh account token so the
   * session goes on, and the owner an e-mail saying what ended.
   */
  async changePassword(
    userId: string,
    oldPassword: string,
    newPassword: string,
    address: string | undefined,
  ): Promise<{ accessToken: string; ended: EndedCredentials }> {
    const user = await this.getUser(userId);
    await this.confirmPassword(user, oldPassword, address, 'the old password is wrong');
    if (oldPassword === newPassword) throw new InvalidInputError('body.newPassword: must differ from the old password');
    const ended = await replacePassword(this.deps, user, newPassword, 'body.newPassword');
    if (!ended) throw new ConflictError('the password was changed by another request; log in again');
    await sendCredentialsEndedEmail(this.deps, user, 'password-changed', ended);
    return { accessToken: await this.issueAccountToken(user.id), ended };
  }

  /**
   * Deletes the account after checking its password: the user, their client keys and their
   * events. Every token of theirs stops working, here and at every service.
   */
  async deleteUser(userId: string, password: string, address: string | undefined): Promise<void> {
    const user = await this.getUser(userId);
    await this.confirmPassword(user, password, address, 'the password is wrong');
    const deleted = await this.deps.revocations.revokeWith(
      (trx) => this.deps.users.delete(user.id, trx),
      () => ({ kind: 'revocation.user-deleted', payload: { userId: user.id } }),
    );
    if (!deleted) throw new NotFoundError('no such user');
  }

  /**
   * Checks a signed-in user's password before a change, and with `secondFactor` their two-factor
   * code too; the attempt counts towards the login throttle.
   */
  async confirmPassword(user: User, password: string, address: string | undefined, wrong: string, secondFactor?: { code: string }): Promise<void> {
    await this.throttled(user.id, address, async () => {
      if (!(await this.deps.passwords.verify(password, user.passwordHash))) throw new ForbiddenError(wrong);
      if (secondFactor) await this.requireSecondFactor(user, secondFactor.code, 403);
    });
  }

  /**
   * Runs a credential check under the login throttle: the attempt is counted before anything is
   * checked, so parallel guesses cannot pass the limit, and cleared only when every check passed.
   * A wrong password, or a missing or wrong second factor, leaves it counted.
   */
  private async throttled<T>(account: string, address: string | undefined, check: () => Promise<T>): Promise<T> {
    await this.deps.throttle.attempt(account, address);
    const result = await check();
    await this.deps.throttle.succeeded(account, address);
    return result;
  }

  private async requireSecondFactor(user: User, code: string | undefined, status: 401 | 403): Promise<void> {
    const result = await this.deps.secondFactor.check(user, code);
    if (result !== 'ok') throw secondFactorRefusal(result, status);
  }
}

import type { Clock } from '@cloud/auth';
import { InvalidInputError } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import type { Mailer } from '../data-access/mailer';
import type { PasswordResetsRepository } from '../data-access/password-resets.repository';
import type { User } from '../data-access/users.repository';
import type { AttemptLimit } from './attempt-limit';
import { randomUrlToken, sha256Hex } from './credentials';
import { sendCredentialsEndedEmail } from './credentials-ended-email';
import { replacePassword, type PasswordChangeDependencies } from './password-change';
import type { EmailLinks } from './email-links';
import { passwordResetEmail } from './password-reset-email';
import type { EndedCredentials } from './standing-credentials';

export interface PasswordResetsDependencies extends PasswordChangeDependencies {
  resets: PasswordResetsRepository;
  mailer: Mailer;
  logger: Logger;
  clock: Clock;
  /** Where the reset e-mail's links point. */
  links: EmailLinks;
  tokenTtlMinutes: number;
  /** Reset e-mails asked for one e-mail address. */
  perEmail: AttemptLimit;
  /** Requests and link uses from one client address. */
  perAddress: AttemptLimit;
}

const INVALID_TOKEN = 'the password-reset link is wrong, used or expired; ask for a new one';

/**
 * Password reset by e-mail: a single-use token (only its SHA-256 stored), valid for a short time
 * and only while the password is the one it was issued for. Using it sets the new password the way
 * a password change does, so every older token is revoked and every client key deleted.
 */
export class PasswordResets {
  /** E-mails still being sent; `settle` waits for them. */
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly deps: PasswordResetsDependencies) {}

  /**
   * Sends a reset link if `email` belongs to a user. The caller answers the same (202) either way:
   * the same work (a token and its hash) is done for unknown addresses, and the e-mail is sent after
   * the answer, so neither the answer nor its timing tells whether the address has an account.
   */
  async request(email: string, address: string | undefined, user: User | undefined): Promise<void> {
    if (address) await this.deps.perAddress.take(address);
    await this.deps.perEmail.take(email.toLowerCase());
    const token = randomUrlToken();
    const tokenHash = sha256Hex(token);
    if (!user) return;
    const now = new Date(this.deps.clock());
    const expiresAt = new Date(now.getTime() + this.deps.tokenTtlMinutes * 60_000);
    await this.deps.resets.insert({ tokenHash, userId: user.id, credentialsVersion: user.credentialsVersion, expiresAt, createdAt: now });
    this.sendInBackground(user, token);
  }

  /**
   * Sets the new password with a token of the user, ending every session and client key as a
   * password change does, and e-mails the owner what ended; 400 InvalidResetToken if the token is
   * wrong, used or expired.
   */
  async reset(user: User | undefined, token: string, password: string, address: string | undefined): Promise<EndedCredentials> {
    if (address) await this.deps.perAddress.take(address);
    const tokenHash = sha256Hex(token);
    const usable = user && (await this.deps.resets.findUsable(user.id, tokenHash, user.credentialsVersion, new Date(this.deps.clock())));
    if (!user || !usable) throw new InvalidInputError(INVALID_TOKEN, 'InvalidResetToken');
    const ended = await replacePassword(this.deps, user, password, 'body.password', (trx) =>
      this.deps.resets.consume(user.id, tokenHash, user.credentialsVersion, new Date(this.deps.clock()), trx),
    );
    // Another request used a token (or changed the password) between the check and the change.
    if (!ended) throw new InvalidInputError(INVALID_TOKEN, 'InvalidResetToken');
    await sendCredentialsEndedEmail(this.deps, user, 'password-reset', ended);
    return ended;
  }

  /** Waits for e-mails being sent. */
  async settle(): Promise<void> {
    await Promise.all([...this.sending]);
  }

  // A failed send is logged, not thrown: the answer has gone, and the user can ask again.
  private sendInBackground(user: User, token: string): void {
    const message = passwordResetEmail({
      to: user.email,
      userId: user.id,
      token,
      links: this.deps.links.passwordReset(user.id, token),
      validMinutes: this.deps.tokenTtlMinutes,
    });
    const sent = this.deps.mailer.send(message).then(
      () => void this.deps.logger.info('password-reset e-mail sent', { userId: user.id }),
      (error: unknown) => void this.deps.logger.error('could not send the password-reset e-mail', { userId: user.id, error }),
    );
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }
}

import type { Logger } from '@cloud/logging';
import type { Mailer, MailMessage } from '../data-access/mailer';
import { describeEnded, type EndedCredentials } from './standing-credentials';

/** What ended the account's standing credentials. */
export type CredentialsChange = 'password-changed' | 'password-reset' | 'two-factor-enabled';

const SUBJECTS: Record<CredentialsChange, string> = {
  'password-changed': 'Your password was changed',
  'password-reset': 'Your password was reset',
  'two-factor-enabled': 'Two-factor login is on',
};

const WHAT_HAPPENED: Record<CredentialsChange, string> = {
  'password-changed': 'The password of your account was changed.',
  'password-reset': 'The password of your account was reset with a link from a password-reset e-mail.',
  'two-factor-enabled': 'Two-factor login was turned on for your account: logging in now takes a code from the authenticator app.',
};

/** The notice sent when a change ended every session and client key of the account. */
export function credentialsEndedEmail(options: { to: string; userId: string; change: CredentialsChange; ended: EndedCredentials }): MailMessage {
  const { to, userId, change, ended } = options;
  return {
    to,
    subject: SUBJECTS[change],
    text: [
      WHAT_HAPPENED[change],
      '',
      describeEnded(ended),
      ...(ended.clientKeyIds.length
        ? ['', 'Client keys deleted:', ...ended.clientKeyIds.map((id) => `  ${id}`), '', 'Programs that used them need a new key: cloud keys create.']
        : []),
      '',
      'Log in again on your other devices.',
      'If this was not you, reset your password now: cloud password reset <your e-mail address>.',
      '',
      `User id: ${userId}`,
      '',
    ].join('\n'),
  };
}

/** Sends the notice; a failed send is logged, not thrown: the change is made and answered. */
export async function sendCredentialsEndedEmail(
  deps: { mailer: Mailer; logger: Logger },
  user: { id: string; email: string },
  change: CredentialsChange,
  ended: EndedCredentials,
): Promise<void> {
  try {
    await deps.mailer.send(credentialsEndedEmail({ to: user.email, userId: user.id, change, ended }));
  } catch (error) {
    deps.logger.error('could not send the credentials-ended e-mail', { userId: user.id, change, error });
  }
}

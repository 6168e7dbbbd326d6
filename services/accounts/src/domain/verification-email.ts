import type { MailMessage } from '../data-access/mailer';

/** The e-mail that carries the verification token (spec section 5 item 7). */
export function verificationEmail(options: { to: string; userId: string; token: string; accountsUrl: string; validHours: number }): MailMessage {
  const { to, userId, token, accountsUrl, validHours } = options;
  const url = `${accountsUrl.replace(/\/$/, '')}/users/${userId}/token/${token}`;
  return {
    to,
    actionUrl: url,
    subject: 'Verify your e-mail address',
    text: [
      'Welcome!',
      '',
      'To verify your e-mail address, send a PUT request to this address:',
      '',
      `  ${url}`,
      '',
      `for example: curl -X PUT ${url}`,
      '',
      `User id: ${userId}`,
      `Verification token: ${token}`,
      '',
      `The token is valid for ${validHours} hours and can be used once.`,
      'If you did not sign up, ignore this message.',
      '',
    ].join('\n'),
  };
}

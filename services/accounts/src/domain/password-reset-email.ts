import type { MailMessage } from '../data-access/mailer';
import type { ActionLinks } from './email-links';

/** The e-mail that carries a password-reset link. */
export function passwordResetEmail(options: { to: string; userId: string; token: string; links: ActionLinks; validMinutes: number }): MailMessage {
  const { to, userId, token, links, validMinutes } = options;
  const url = links.api;
  return {
    to,
    actionUrl: links.page ?? url,
    subject: 'Reset your password',
    text: [
      'Someone (hopefully you) asked to reset the password of your account.',
      '',
      ...(links.page
        ? [
            'To choose a new password, open this link:',
            '',
            `  ${links.page}`,
            '',
            'Or, without a browser, send the new password in a PUT request to this address:',
          ]
        : ['To choose a new password, send it in a PUT request to this address:']),
      '',
      `  ${url}`,
      '',
      `with the command-line client: cloud password reset --link ${url}`,
      '',
      `or with curl: curl -X PUT -H 'content-type: application/json' -d '{"password": "<new password>"}' ${url}`,
      '',
      `User id: ${userId}`,
      `Reset token: ${token}`,
      '',
      `The link works once, for ${validMinutes} minutes; every device is logged out when it is used.`,
      'If you did not ask for this, ignore this message: your password stays as it is.',
      '',
    ].join('\n'),
  };
}

import type { MailMessage } from '../data-access/mailer';
import type { ActionLinks } from './email-links';

/** The e-mail that carries the verification token (spec section 5 item 7). */
export function verificationEmail(options: { to: string; userId: string; token: string; links: ActionLinks; validHours: number }): MailMessage {
  const { to, userId, token, links, validHours } = options;
  const url = links.api;
  const byRequest = ['send a PUT request to this address:', '', `  ${url}`, '', `for example: curl -X PUT ${url}`];
  return {
    to,
    actionUrl: links.page ?? url,
    subject: 'Verify your e-mail address',
    text: [
      'Welcome!',
      '',
      ...(links.page
        ? ['To verify your e-mail address, open this link:', '', `  ${links.page}`, '', `Or, without a browser, ${byRequest[0]}`, ...byRequest.slice(1)]
        : [`To verify your e-mail address, ${byRequest[0]}`, ...byRequest.slice(1)]),
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

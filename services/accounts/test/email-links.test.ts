import { EmailLinks } from '../src/domain/email-links';
import { passwordResetEmail } from '../src/domain/password-reset-email';
import { verificationEmail } from '../src/domain/verification-email';

describe('the links of the e-mails', () => {
  const userId = 'user-1b2c';
  const token = 'tok/en+=';

  it('point at the API alone when there is no console', () => {
    const links = new EmailLinks('https://api.example.com/');
    expect(links.verification(userId, token)).toEqual({ api: `https://api.example.com/users/${userId}/token/${token}` });
    expect(links.passwordReset(userId, token)).toEqual({ api: `https://api.example.com/users/${userId}/password-reset/${token}` });
    const mail = verificationEmail({ to: 'ada@example.com', userId, token, links: links.verification(userId, token), validHours: 48 });
    expect(mail.actionUrl).toBe(`https://api.example.com/users/${userId}/token/${token}`);
    expect(mail.text).toContain('To verify your e-mail address, send a PUT request to this address:');
    expect(mail.text).not.toContain('open this link');
  });

  it("lead with the console's page when there is one, its query encoded, and keep the API's", () => {
    const links = new EmailLinks('http://127.0.0.1:3001', 'http://127.0.0.1:3000/');
    const verification = links.verification(userId, token);
    expect(verification.page).toBe(`http://127.0.0.1:3000/verify?user=${userId}&token=tok%2Fen%2B%3D`);
    expect(new URL(verification.page!).searchParams.get('token')).toBe(token);
    const mail = verificationEmail({ to: 'ada@example.com', userId, token, links: verification, validHours: 48 });
    expect(mail.actionUrl).toBe(verification.page);
    expect(mail.text).toContain(`open this link:\n\n  ${verification.page}`);
    expect(mail.text).toContain(`curl -X PUT ${verification.api}`);

    const reset = links.passwordReset(userId, token);
    expect(reset.page).toBe(`http://127.0.0.1:3000/reset-password?user=${userId}&token=tok%2Fen%2B%3D`);
    const resetMail = passwordResetEmail({ to: 'ada@example.com', userId, token, links: reset, validMinutes: 30 });
    expect(resetMail.actionUrl).toBe(reset.page);
    expect(resetMail.text).toContain(`cloud password reset --link ${reset.api}`);
  });

  it('keep a console under a path prefix', () => {
    expect(new EmailLinks('http://api', 'https://example.com/console').verification('u', 't').page).toBe('https://example.com/console/verify?user=u&token=t');
  });
});

import { linkOf, verificationOf } from '../src/commands/email-links';
import { UsageError } from '../src/exit-codes';

describe('the links of the e-mails, as cloud verify and cloud password reset --link take them', () => {
  it("reads the API's link", () => {
    expect(verificationOf('http://127.0.0.1:3001/users/user-1/token/abc', undefined)).toEqual({ userId: 'user-1', token: 'abc' });
    expect(linkOf('https://api.example.com/users/user-1/password-reset/x%2By', 'password-reset', 'wrong')).toEqual({ userId: 'user-1', token: 'x+y' });
  });

  it("reads the console's page, query decoded, under a path prefix too", () => {
    expect(verificationOf('http://127.0.0.1:3000/verify?user=user-1&token=tok%2Fen%2B%3D', undefined)).toEqual({ userId: 'user-1', token: 'tok/en+=' });
    expect(linkOf('https://example.com/console/reset-password?token=t&user=u', 'password-reset', 'wrong')).toEqual({ userId: 'u', token: 't' });
  });

  it("refuses one kind's page for the other, and a page without its user or token", () => {
    expect(() => linkOf('http://127.0.0.1:3000/verify?user=u&token=t', 'password-reset', 'give the reset link')).toThrow(new UsageError('give the reset link'));
    expect(() => verificationOf('http://127.0.0.1:3000/verify?user=u', undefined)).toThrow(UsageError);
    expect(() => verificationOf('not a link', undefined)).toThrow(UsageError);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { bearer, clientTokens, PASSWORD, startTestAccounts, uniqueEmail, verifiedUser, type TestAccounts } from '../src/testing';

const NEW_PASSWORD = 'a brand new passphrase 7';
const RESET_LINK = /\/users\/user-[0-9a-f-]{36}\/password-reset\/[A-Za-z0-9_-]{43}\b/;

type User = Awaited<ReturnType<typeof verifiedUser>>;
interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * A new password (changed, or reset by e-mail) and turning two-factor login on end every standing
 * credential the old password could have made: the tokens from before and the client keys, which
 * would otherwise go on minting tokens (issue 29, item 3).
 */
describe('what a new password or two-factor login ends', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts();
  });
  afterAll(() => t.close());

  /** The dev outbox's messages to `to`, oldest first: subject and text. */
  const mailsTo = (to: string) => {
    const dir = path.join(t.dataDir, 'mail');
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((file) => file.endsWith('.txt'))
          .sort()
      : [];
    return files
      .map((file) => readFileSync(path.join(dir, file), 'utf8'))
      .filter((text) => text.startsWith(`To: ${to}\n`))
      .map((text) => ({ subject: /^Subject: (.*)$/m.exec(text)![1]!, text }));
  };

  /** The three changes, each answering what it ended and the account token to go on with (undefined for a reset: log in again). */
  const changes: Record<string, (user: User) => Promise<{ answer: Answer; accountToken: string | undefined }>> = {
    'a password change': async (user) => {
      const answer = await t.http.put('/users/me/password').set(bearer(user.accountToken)).send({ oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
      return { answer, accountToken: answer.body.accessToken as string | undefined };
    },
    'a password reset': async (user) => {
      await t.http.post('/users/password-reset').send({ email: user.email }).expect(202);
      await t.settle();
      const mail = mailsTo(user.email).find((each) => each.subject === 'Reset your password');
      const link = RESET_LINK.exec(mail?.text ?? '')?.[0];
      expect(link).toBeDefined();
      return { answer: await t.http.put(link!).send({ password: NEW_PASSWORD }), accountToken: undefined };
    },
    'turning two-factor login on': async (user) => {
      const enrol = await t.http.post('/users/me/two-factor').set(bearer(user.accountToken)).send({ password: PASSWORD }).expect(200);
      const code = new TOTP({ secret: Secret.fromBase32(enrol.body.secret as string) }).generate({ timestamp: t.clock() });
      const answer = await t.http.post('/users/me/two-factor/confirm').set(bearer(user.accountToken)).send({ code });
      expect(answer.body.recoveryCodes).toHaveLength(10);
      return { answer, accountToken: answer.body.accessToken as string | undefined };
    },
  };

  const subjects: Record<string, string> = {
    'a password change': 'Your password was changed',
    'a password reset': 'Your password was reset',
    'turning two-factor login on': 'Two-factor login is on',
  };

  it.each(Object.keys(changes))('%s deletes every client key and revokes every token from before, and says so in the answer and an e-mail', async (change) => {
    const user = await verifiedUser(t, uniqueEmail('ended'));
    // Two keys, as whoever had the password could have made.
    const first = await clientTokens(t, user.accountToken);
    t.clock.advance(1000);
    const second = await clientTokens(t, user.accountToken);

    const { answer, accountToken } = await changes[change]!(user);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      ended: { clientKeys: 2, clientKeyIds: [first.clientId, second.clientId], tokensIssuedBefore: expect.any(String) },
      message: expect.stringContaining('Every session and token issued before'),
    });
    expect(answer.body.message).toContain('all 2 client keys of the account were deleted');

    // The keys no longer mint tokens, and nothing minted before works.
    for (const key of [first, second]) {
      const exchange = await t.http.post('/auth/token').send({ grantType: 'clientCredentials', clientId: key.clientId, clientSecret: key.clientSecret });
      expect(exchange.status).toBe(401);
      expect(exchange.headers['content-type']).toMatch(/^application\/json/);
      expect(exchange.body).toEqual({ code: 'Unauthorized', message: 'wrong clientId or clientSecret' });
      const refresh = await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken: key.refreshToken });
      expect(refresh.status).toBe(401);
      expect(refresh.body).toMatchObject({ code: 'Unauthorized' });
    }
    expect((await t.http.get('/users/me').set(bearer(user.accountToken))).body).toEqual({ code: 'Unauthorized', message: 'token has been revoked' });
    expect(await t.service.db('client_keys').where({ user_id: user.id })).toEqual([]);
    expect(await t.service.db('revocations').where({ user_id: user.id })).toMatchObject([{ kind: 'revocation.credentials-changed', credentials_version: 1 }]);

    // The session goes on with the answer's token (or, after a reset, a new login): no keys listed, a new one works.
    const goOn = accountToken ?? (await t.http.post('/auth').auth(user.email, NEW_PASSWORD).expect(200)).body.accessToken;
    expect(
      (
        await t.http
          .get('/users/me/client-keys')
          .set(bearer(goOn as string))
          .expect(200)
      ).body,
    ).toEqual([]);
    await clientTokens(t, goOn as string);

    // The owner is told what ended.
    const notice = mailsTo(user.email).filter((mail) => mail.subject === subjects[change]);
    expect(notice).toHaveLength(1);
    expect(notice[0]!.text).toContain('Every session and token issued before');
    expect(notice[0]!.text).toContain('all 2 client keys of the account were deleted');
    expect(notice[0]!.text).toContain(`  ${first.clientId}\n  ${second.clientId}\n`);
  });

  it('says so when there were no client keys to delete', async () => {
    const user = await verifiedUser(t, uniqueEmail('no-keys'));
    const { answer } = await changes['a password change']!(user);
    expect(answer.body).toMatchObject({ ended: { clientKeys: 0, clientKeyIds: [] } });
    expect(answer.body.message).toContain('there were no client keys to delete');
    expect(mailsTo(user.email).at(-1)!.text).not.toContain('Client keys deleted');
  });
});

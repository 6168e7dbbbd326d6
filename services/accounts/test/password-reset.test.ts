import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { bearer, clientTokens, PASSWORD, startTestAccounts, uniqueEmail, type TestAccounts } from '../src/testing';
import { addresses, downSmtpUrl, sendingTo, startSmtpServer, type TestSmtpServer } from './smtp-server';

const NEW_PASSWORD = 'a brand new passphrase 7';
const LINK = /https:\/\/accounts\.example\.test\/users\/(user-[0-9a-f-]{36})\/password-reset\/([A-Za-z0-9_-]{43})\b/;

describe('password reset by e-mail (SMTP)', () => {
  let smtp: TestSmtpServer;
  let t: TestAccounts;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestAccounts({ ...sendingTo(smtp), PASSWORD_RESET_TOKEN_TTL_MINUTES: '30' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** Signs up and verifies through the e-mails the SMTP server received; logs in. */
  async function verifiedUser(email = uniqueEmail('reset')) {
    const id = (await t.http.post('/users').send({ email, password: PASSWORD, displayName: 'Reset User' }).expect(201)).body.id as string;
    const token = /Verification token: (\S+)/.exec(smtp.to(email)[0]?.mail.text ?? '')?.[1];
    await t.http.put(`/users/${id}/token/${token}`).expect(200);
    const accountToken = (await t.http.post('/auth').auth(email, PASSWORD).expect(200)).body.accessToken as string;
    return { id, email, accountToken };
  }

  /** Asks for a reset and returns the link path of the e-mail that arrives. */
  async function requestReset(email: string, sentTo = email): Promise<string> {
    const before = smtp.to(sentTo).length;
    const res = await t.http.post('/users/password-reset').send({ email });
    expect(res.status).toBe(202);
    await t.settle();
    const mails = smtp.to(sentTo);
    expect(mails).toHaveLength(before + 1);
    const url = LINK.exec(mails.at(-1)!.mail.text ?? '')?.[0];
    expect(url).toBeDefined();
    return new URL(url!).pathname;
  }

  const resetWith = (path: string, password: string) => t.http.put(path).send({ password });
  const logIn = (email: string, password: string) => t.http.post('/auth').auth(email, password);

  it('mails a single-use link that sets the new password and revokes every older token', async () => {
    const user = await verifiedUser();
    const client = await clientTokens(t, user.accountToken);
    const res = await t.http.post('/users/password-reset').send({ email: user.email.toUpperCase() });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: 'if the address has an account, a password-reset e-mail is on its way' });
    await t.settle();

    const [mail] = smtp.to(user.email).slice(1); // after the verification e-mail
    expect(mail!.envelopeFrom).toBe('no-reply@cloud.example.test');
    expect(addresses(mail!.mail.to).map((a) => a.address)).toEqual([user.email]);
    expect(mail!.mail.subject).toBe('Reset your password');
    const text = mail!.mail.text ?? '';
    const [url, userId, token] = LINK.exec(text)!;
    expect(userId).toBe(user.id);
    expect(text).toContain(`cloud password reset --link ${url}`);
    expect(text).toContain('for 30 minutes');

    // Only the token's SHA-256 is stored.
    const rows = (await t.service.db('password_resets').where({ user_id: user.id })) as Array<{ token_hash: string }>;
    expect(rows.map((row) => row.token_hash)).toEqual([createHash('sha256').update(token!).digest('hex')]);

    const reset = await resetWith(new URL(url!).pathname, NEW_PASSWORD);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({
      ended: { clientKeys: 1, clientKeyIds: [client.clientId] },
      message: expect.stringContaining('The password is changed; log in with it.'),
    });
    expect(await t.service.db('password_resets').where({ user_id: user.id })).toEqual([]);

    // Tokens from before are revoked; the old password is gone, the new one works.
    expect((await t.http.get('/users/me').set(bearer(user.accountToken))).body).toEqual({ code: 'Unauthorized', message: 'token has been revoked' });
    expect((await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken: client.refreshToken })).status).toBe(401);
    expect((await logIn(user.email, PASSWORD)).status).toBe(401);
    const fresh = await logIn(user.email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    const revocations = await t.service.db('revocations').where({ user_id: user.id });
    expect(revocations).toMatchObject([{ kind: 'revocation.credentials-changed', credentials_version: 1 }]);

    // The link works once.
    const again = await resetWith(new URL(url!).pathname, 'yet another passphrase 8');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: 'InvalidResetToken', message: 'the password-reset link is wrong, used or expired; ask for a new one' });
    expect((await logIn(user.email, NEW_PASSWORD)).status).toBe(200);

    // Both calls are in the user's events.
    await t.settle();
    const events = await t.http.get('/users/me/events').set(bearer(fresh.body.accessToken as string));
    const seen = (events.body as Array<{ input: { method: string; route: string }; output: { httpStatusCode: number } }>).map(
      (event) => `${event.input.method} ${event.input.route} ${event.output.httpStatusCode}`,
    );
    expect(seen).toEqual(
      expect.arrayContaining([
        'POST /users/password-reset 202',
        'PUT /users/:userId/password-reset/:token 200',
        'PUT /users/:userId/password-reset/:token 400',
      ]),
    );
  });

  it('answers 202 for an address without an account, and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const res = await t.http.post('/users/password-reset').send({ email });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: 'if the address has an account, a password-reset e-mail is on its way' });
    await t.settle();
    expect(smtp.to(email)).toEqual([]);
  });

  it('refuses an expired link with 400 InvalidResetToken and keeps the password', async () => {
    const user = await verifiedUser();
    const path = await requestReset(user.email);
    t.clock.advance(30 * 60_000 + 1000);
    const res = await resetWith(path, NEW_PASSWORD);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'InvalidResetToken' });
    expect((await logIn(user.email, PASSWORD)).status).toBe(200);
  });

  it('a newer link ends the older ones at once, before any is used; the newest works', async () => {
    const user = await verifiedUser();
    const first = await requestReset(user.email);
    const second = await requestReset(user.email);
    expect(second).not.toBe(first);
    // Whoever holds the older e-mail cannot use it once a newer one was asked for (issue 29, item 4).
    expect((await resetWith(first, 'yet another passphrase 8')).body).toMatchObject({ code: 'InvalidResetToken' });
    expect((await logIn(user.email, 'yet another passphrase 8')).status).toBe(401);
    expect((await resetWith(second, NEW_PASSWORD)).status).toBe(200);
    expect((await resetWith(first, 'yet another passphrase 8')).body).toMatchObject({ code: 'InvalidResetToken' });
    expect((await logIn(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('a password change ends outstanding links', async () => {
    const user = await verifiedUser();
    const path = await requestReset(user.email);
    await t.http.put('/users/me/password').set(bearer(user.accountToken)).send({ oldPassword: PASSWORD, newPassword: NEW_PASSWORD }).expect(200);
    expect((await resetWith(path, 'yet another passphrase 8')).body).toMatchObject({ code: 'InvalidResetToken' });
    expect((await logIn(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a weak password with 400 InvalidInput without using the link up', async () => {
    const user = await verifiedUser();
    const path = await requestReset(user.email);
    for (const [password, why] of [
      ['short1!', 'body.password: must be at least 10 characters'],
      [`${user.email.split('@')[0]}-2024`, 'body.password'],
    ] as const) {
      const res = await resetWith(path, password);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('InvalidInput');
      expect(res.body.message).toContain(why);
    }
    expect((await resetWith(path, NEW_PASSWORD)).status).toBe(200);
  });

  it.each([
    ['a wrong token', (id: string) => `/users/${id}/password-reset/${'A'.repeat(43)}`, { password: NEW_PASSWORD }, 400, 'InvalidResetToken'],
    [
      'an unknown user',
      () => `/users/user-00000000-0000-4000-8000-000000000000/password-reset/${'A'.repeat(43)}`,
      { password: NEW_PASSWORD },
      400,
      'InvalidResetToken',
    ],
    ['no password', (id: string) => `/users/${id}/password-reset/${'A'.repeat(43)}`, {}, 400, 'InvalidInput'],
    ['an unknown field', (id: string) => `/users/${id}/password-reset/${'A'.repeat(43)}`, { password: NEW_PASSWORD, admin: true }, 400, 'InvalidInput'],
  ])('refuses %s with a 4xx JSON error', async (_name, path, body, status, code) => {
    const user = await verifiedUser();
    const res = await t.http.put(path(user.id)).send(body);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code });
    expect((await logIn(user.email, PASSWORD)).status).toBe(200);
  });

  it('refuses a request without a valid e-mail address with 400 InvalidInput', async () => {
    for (const body of [{}, { email: 'not-an-address' }, { email: 'a@example.com', extra: 1 }]) {
      const res = await t.http.post('/users/password-reset').send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'InvalidInput' });
    }
  });
});

describe('password-reset throttling', () => {
  let t: TestAccounts;
  const ask = (from: string, email: string) => t.http.post('/users/password-reset').set('x-forwarded-for', from).send({ email });
  beforeAll(async () => {
    t = await startTestAccounts({
      TRUST_PROXY: 'true',
      PASSWORD_RESET_MAX_PER_EMAIL: '2',
      PASSWORD_RESET_MAX_PER_ADDRESS: '4',
      PASSWORD_RESET_WINDOW_SECONDS: '3600',
    });
  });
  afterAll(() => t.close());

  // Messages in the dev outbox.
  const mailCount = async () => {
    await t.settle();
    const dir = path.join(t.dataDir, 'mail');
    return existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.eml')).length : 0;
  };

  it('answers 429 with Retry-After after 2 requests for one e-mail address, from any client address, and sends no more mail', async () => {
    const email = uniqueEmail('asked-often');
    await t.http.post('/users').send({ email, password: PASSWORD, displayName: 'Often' }).expect(201);
    const before = await mailCount();
    expect((await ask('10.9.0.1', email)).status).toBe(202);
    expect((await ask('10.9.0.2', email)).status).toBe(202);
    const refused = await ask('10.9.0.3', email);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: 'TooManyRequests', message: 'too many password-reset requests; try again later' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3590);
    expect(await mailCount()).toBe(before + 2);
    // An unknown address is limited the same way, so a 429 tells nothing either.
    const unknown = uniqueEmail('unknown');
    await ask('10.9.0.1', unknown);
    await ask('10.9.0.2', unknown);
    expect((await ask('10.9.0.3', unknown)).status).toBe(429);
  });

  it('answers 429 after 4 requests or link uses from one client address', async () => {
    expect((await ask('10.9.1.1', uniqueEmail('a'))).status).toBe(202);
    expect((await ask('10.9.1.1', uniqueEmail('b'))).status).toBe(202);
    for (let i = 0; i < 2; i += 1) {
      const wrong = await t.http
        .put(`/users/user-00000000-0000-4000-8000-000000000000/password-reset/${'A'.repeat(43)}`)
        .set('x-forwarded-for', '10.9.1.1')
        .send({ password: NEW_PASSWORD });
      expect(wrong.status).toBe(400);
    }
    const refused = await ask('10.9.1.1', uniqueEmail('c'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (
        await t.http
          .put(`/users/user-00000000-0000-4000-8000-000000000000/password-reset/${'A'.repeat(43)}`)
          .set('x-forwarded-for', '10.9.1.1')
          .send({ password: NEW_PASSWORD })
      ).status,
    ).toBe(429);
    expect((await ask('10.9.1.2', uniqueEmail('d'))).status).toBe(202);
  });
});

describe('password reset while the SMTP server is down', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts({ SMTP_URL: await downSmtpUrl() });
  });
  afterAll(() => t.close());

  it('still answers 202, and logs the failed send', async () => {
    const email = uniqueEmail('smtp-down');
    const userId = (await t.http.post('/users').send({ email, password: PASSWORD, displayName: 'No Mail' }).expect(201)).body.id as string;
    const logged = jest.spyOn(t.service.logger, 'error');
    expect((await t.http.post('/users/password-reset').send({ email })).status).toBe(202);
    await t.settle();
    expect(logged).toHaveBeenCalledWith('could not send the password-reset e-mail', expect.objectContaining({ userId }));
    logged.mockRestore();
  });
});

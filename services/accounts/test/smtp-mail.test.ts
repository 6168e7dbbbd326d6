import { PASSWORD, startTestAccounts, uniqueEmail, type TestAccounts } from '../src/testing';
import { addresses, downSmtpUrl, sendingTo, startSmtpServer, type TestSmtpServer } from './smtp-server';

describe('the verification e-mail over SMTP', () => {
  let smtp: TestSmtpServer;
  let t: TestAccounts;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestAccounts({ ...sendingTo(smtp) });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('is delivered to the SMTP server from MAIL_FROM to the new user, and its token and link verify the user', async () => {
    const email = uniqueEmail('smtp');
    const signUp = await t.http.post('/users').send({ email, password: PASSWORD, displayName: 'Smtp User' });
    expect(signUp.status).toBe(201);
    const userId = signUp.body.id as string;

    const messages = smtp.received.filter((message) => message.envelopeTo.includes(email));
    expect(messages).toHaveLength(1);
    const { envelopeFrom, mail } = messages[0]!;
    expect(envelopeFrom).toBe('no-reply@cloud.example.test');
    expect(addresses(mail.from)).toEqual([{ address: 'no-reply@cloud.example.test', name: 'Cloud Test' }]);
    expect(addresses(mail.to).map((a) => a.address)).toEqual([email]);
    expect(mail.subject).toBe('Verify your e-mail address');

    const text = mail.text ?? '';
    const token = /Verification token: (\S+)/.exec(text)?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(text).toContain(`User id: ${userId}`);
    const link = /https:\/\/\S+/.exec(text)?.[0];
    expect(link).toBe(`https://accounts.example.test/users/${userId}/token/${token}`);
    expect(text).toContain(`curl -X PUT ${link}`);

    const verify = await t.http.put(new URL(link!).pathname);
    expect(verify.status).toBe(200);
    expect(verify.body).toMatchObject({ id: userId, email, verifiedAt: new Date(t.clock()).toISOString() });
    expect((await t.http.post('/auth').auth(email, PASSWORD)).status).toBe(200);
  });

  it('sends a second message with a new token on resend, and nothing for a refused resend', async () => {
    const email = uniqueEmail('smtp-resend');
    const userId = (await t.http.post('/users').send({ email, password: PASSWORD, displayName: 'Resend' }).expect(201)).body.id as string;
    await t.http.post(`/users/${userId}/verification`).expect(429);
    expect(smtp.received.filter((message) => message.envelopeTo.includes(email))).toHaveLength(1);

    t.clock.advance(60_000);
    await t.http.post(`/users/${userId}/verification`).expect(202);
    const tokens = smtp.received
      .filter((message) => message.envelopeTo.includes(email))
      .map((message) => /Verification token: (\S+)/.exec(message.mail.text ?? '')?.[1]);
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).not.toBe(tokens[0]);
    expect((await t.http.put(`/users/${userId}/token/${tokens[0]}`)).status).toBe(404);
    expect((await t.http.put(`/users/${userId}/token/${tokens[1]}`)).status).toBe(200);
  });
});

describe('sign-up while the SMTP server is down', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts({ SMTP_URL: await downSmtpUrl() });
  });
  afterAll(() => t.close());

  it('still answers 201 and stores the user, logging the failed send', async () => {
    const logged = jest.spyOn(t.service.logger, 'error');
    const email = uniqueEmail('smtp-down');
    const signUp = await t.http.post('/users').send({ email, password: PASSWORD, displayName: 'No Mail' });
    expect(signUp.status).toBe(201);
    const userId = signUp.body.id as string;
    expect(signUp.body).toMatchObject({ email, verifiedAt: null });

    const row = (await t.service.db('users').where({ id: userId }).first()) as {
      email: string;
      verified_at: Date | null;
      verification_token_hash: string | null;
    };
    expect(row).toMatchObject({ email, verified_at: null, verification_token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(logged).toHaveBeenCalledWith('could not send the verification e-mail', expect.objectContaining({ userId }));

    // The user can ask for a new e-mail once the resend interval has passed.
    await t.http.post(`/users/${userId}/verification`).expect(429);
    t.clock.advance(60_000);
    await t.http.post(`/users/${userId}/verification`).expect(202);
    logged.mockRestore();
  });
});

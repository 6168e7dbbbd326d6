import { Secret, TOTP } from 'otpauth';
import { loadAccountsConfig } from '../src';
import type { UserRow } from '../src/data-access/users.repository';
import { TwoFactorCrypto } from '../src/domain/two-factor-crypto';
import { loadAccountsKeys } from '../src/keys';
import { bearer, PASSWORD, startTestAccounts, uniqueEmail, verifiedUser, type TestAccounts } from '../src/testing';

const STEP_MS = 30_000;
const WRONG = 'wrong horse battery 99';

/** The code an authenticator app shows for `secret` at `timestamp`, computed with the same library the service uses. */
const codeAt = (secret: string, timestamp: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp });

type User = Awaited<ReturnType<typeof verifiedUser>>;

/**
 * Enrols and confirms two-factor login for `user`; returns the secret and the recovery codes.
 * Turning it on revokes every token from before: `user.accountToken` becomes the answer's new one.
 */
async function turnOn(t: TestAccounts, user: User): Promise<{ secret: string; recoveryCodes: string[] }> {
  const enrol = await t.http.post('/users/me/two-factor').set(bearer(user.accountToken)).send({ password: PASSWORD }).expect(200);
  const secret = enrol.body.secret as string;
  const confirm = await t.http
    .post('/users/me/two-factor/confirm')
    .set(bearer(user.accountToken))
    .send({ code: codeAt(secret, t.clock()) })
    .expect(200);
  user.accountToken = confirm.body.accessToken as string;
  // The confirming code's step is used up: move on to a fresh one.
  t.clock.advance(STEP_MS);
  return { secret, recoveryCodes: confirm.body.recoveryCodes as string[] };
}

const login = (t: TestAccounts, user: User, body?: object) => {
  const req = t.http.post('/auth').auth(user.email, PASSWORD);
  return body ? req.send(body) : req;
};

function expectRefusal(res: { status: number; body: unknown; headers: Record<string, string> }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ code, message: expect.any(String) });
  expect((res.body as { accessToken?: string }).accessToken).toBeUndefined();
  if (status === 401) expect(res.headers['www-authenticate']).toMatch(/^Basic /);
}

describe('two-factor login (TOTP)', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts({ TWO_FACTOR_ISSUER: 'Test Cloud' });
  });
  afterAll(() => t.close());

  const userRow = async (id: string) => (await t.service.db<UserRow>('users').where({ id }).first())!;

  it('enrols with the password: a base32 secret and its otpauth URI, kept pending and encrypted', async () => {
    const user = await verifiedUser(t, uniqueEmail('enrol'));
    const noPassword = await t.http.post('/users/me/two-factor').set(bearer(user.accountToken)).send({});
    expect(noPassword.status).toBe(400);
    expect(noPassword.body).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining('password') });
    const wrong = await t.http.post('/users/me/two-factor').set(bearer(user.accountToken)).send({ password: WRONG });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'Forbidden' });
    expect((await t.http.post('/users/me/two-factor').send({ password: PASSWORD })).status).toBe(401);

    const res = await t.http.post('/users/me/two-factor').set(bearer(user.accountToken)).send({ password: PASSWORD });
    expect(res.status).toBe(200);
    const { secret, uri } = res.body as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.host).toBe('totp');
    expect(decodeURIComponent(parsed.pathname)).toBe(`/Test Cloud:${user.email}`);
    expect(Object.fromEntries(parsed.searchParams)).toEqual({ issuer: 'Test Cloud', secret, algorithm: 'SHA1', digits: '6', period: '30' });

    // Stored encrypted, bound to this user, and not on yet.
    const row = await userRow(user.id);
    expect(row.two_factor_secret).not.toContain(secret);
    expect(row.two_factor_enabled_at).toBeNull();
    const crypto = new TwoFactorCrypto(loadAccountsKeys(loadAccountsConfig({ DATA_DIR: t.dataDir })).twoFactorKey);
    expect(crypto.decrypt(user.id, row.two_factor_secret!)).toBe(secret);
    expect(() => crypto.decrypt('user-someone-else', row.two_factor_secret!)).toThrow();
    expect((await t.http.get('/users/me/two-factor').set(bearer(user.accountToken))).body).toEqual({ enabled: false, pending: true, recoveryCodesLeft: 0 });
    expect((await t.http.get('/users/me').set(bearer(user.accountToken))).body).toMatchObject({ twoFactor: false });

    // Pending is not on: login still needs no code, and a second enrolment replaces the secret.
    expect((await login(t, user)).status).toBe(200);
    const again = await t.http.post('/users/me/two-factor').set(bearer(user.accountToken)).send({ password: PASSWORD }).expect(200);
    expect(again.body.secret).not.toBe(secret);
    const stale = await t.http
      .post('/users/me/two-factor/confirm')
      .set(bearer(user.accountToken))
      .send({ code: codeAt(secret, t.clock()) });
    expect(stale.status).toBe(403);
    expect(stale.body).toMatchObject({ code: 'InvalidTwoFactorCode' });
  });

  it('turns on with a first code, gives 10 recovery codes once (stored hashed), and then asks every login for a code', async () => {
    const user = await verifiedUser(t, uniqueEmail('confirm'));
    const nothing = await t.http.post('/users/me/two-factor/confirm').set(bearer(user.accountToken)).send({ code: '123456' });
    expect(nothing.status).toBe(409);
    expect(nothing.body).toMatchObject({ code: 'TwoFactorNotPending' });

    const enrol = await t.http.post('/users/me/two-factor').set(bearer(user.accountToken)).send({ password: PASSWORD }).expect(200);
    const secret = enrol.body.secret as string;
    const code = codeAt(secret, t.clock());
    const wrong = await t.http
      .post('/users/me/two-factor/confirm')
      .set(bearer(user.accountToken))
      .send({ code: code === '000000' ? '000001' : '000000' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'InvalidTwoFactorCode' });

    const res = await t.http.post('/users/me/two-factor/confirm').set(bearer(user.accountToken)).send({ code });
    expect(res.status).toBe(200);
    const recoveryCodes = res.body.recoveryCodes as string[];
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const recoveryCode of recoveryCodes) expect(recoveryCode).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await t.service.db('recovery_codes').where({ user_id: user.id }).select('code_hash', 'used_at');
    expect(stored).toHaveLength(10);
    const storedText = JSON.stringify(stored);
    for (const recoveryCode of recoveryCodes) expect(storedText).not.toContain(recoveryCode.replace('-', ''));

    // Every token from before is revoked; the answer's account token carries the session on.
    expect((await t.http.get('/users/me').set(bearer(user.accountToken))).body).toEqual({ code: 'Unauthorized', message: 'token has been revoked' });
    user.accountToken = res.body.accessToken as string;
    expect((await t.http.get('/users/me').set(bearer(user.accountToken))).body).toMatchObject({ twoFactor: true });
    expect((await t.http.get('/users/me/two-factor').set(bearer(user.accountToken))).body).toEqual({ enabled: true, pending: false, recoveryCodesLeft: 10 });
    const twice = await t.http.post('/users/me/two-factor/confirm').set(bearer(user.accountToken)).send({ code });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'TwoFactorEnabled' });
    const reEnrol = await t.http.post('/users/me/two-factor').set(bearer(user.accountToken)).send({ password: PASSWORD });
    expect(reEnrol.status).toBe(409);
    expect(reEnrol.body).toMatchObject({ code: 'TwoFactorEnabled' });

    // Without a code, the login says what is missing; the confirming code is used up already.
    expectRefusal(await login(t, user), 401, 'TwoFactorRequired');
    expectRefusal(await login(t, user, { code }), 401, 'InvalidTwoFactorCode');
  });

  it('logs in with a code of the step, or the one before or after, and never takes a step twice', async () => {
    const user = await verifiedUser(t, uniqueEmail('login'));
    const { secret } = await turnOn(t, user);

    const code = codeAt(secret, t.clock());
    const ok = await login(t, user, { code: ` ${code.slice(0, 3)} ${code.slice(3)} ` });
    expect(ok.status).toBe(200);
    const me = await t.http.get('/users/me').set(bearer(ok.body.accessToken as string));
    expect(me.body).toMatchObject({ id: user.id, twoFactor: true });
    // The same code again, within its 30 seconds: a replay.
    expectRefusal(await login(t, user, { code }), 401, 'InvalidTwoFactorCode');

    // Two steps on, the previous step's code (a slow clock) is taken, then the next step's (a fast one)...
    t.clock.advance(2 * STEP_MS);
    expect((await login(t, user, { code: codeAt(secret, t.clock() - STEP_MS) })).status).toBe(200);
    expect((await login(t, user, { code: codeAt(secret, t.clock() + STEP_MS) })).status).toBe(200);
    // ...and the current step's is then older than the newest used, so it is refused.
    expectRefusal(await login(t, user, { code: codeAt(secret, t.clock()) }), 401, 'InvalidTwoFactorCode');
    // Codes two steps off are outside the window.
    t.clock.advance(10 * STEP_MS);
    expectRefusal(await login(t, user, { code: codeAt(secret, t.clock() - 2 * STEP_MS) }), 401, 'InvalidTwoFactorCode');
    expectRefusal(await login(t, user, { code: codeAt(secret, t.clock() + 2 * STEP_MS) }), 401, 'InvalidTwoFactorCode');
    // A wrong password is still just that, code or not.
    const wrongPassword = await t.http
      .post('/auth')
      .auth(user.email, WRONG)
      .send({ code: codeAt(secret, t.clock()) });
    expectRefusal(wrongPassword, 401, 'Unauthorized');
  });

  it('takes two parallel logins with the same code only once', async () => {
    const user = await verifiedUser(t, uniqueEmail('race'));
    const { secret } = await turnOn(t, user);
    const code = codeAt(secret, t.clock());
    const answers = await Promise.all([login(t, user, { code }), login(t, user, { code }), login(t, user, { code })]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401, 401]);
  });

  it('takes each recovery code once, however it is typed', async () => {
    const user = await verifiedUser(t, uniqueEmail('recovery'));
    const { recoveryCodes } = await turnOn(t, user);
    const [first, second] = recoveryCodes as [string, string];

    expect((await login(t, user, { code: first })).status).toBe(200);
    expectRefusal(await login(t, user, { code: first }), 401, 'InvalidTwoFactorCode');
    expect((await login(t, user, { code: second.toUpperCase().replace('-', ' ') })).status).toBe(200);
    expectRefusal(await login(t, user, { code: 'abcde-fghij' }), 401, 'InvalidTwoFactorCode');

    const used = await t.service.db('recovery_codes').where({ user_id: user.id }).whereNotNull('used_at').count({ n: '*' });
    expect(Number(used[0]!.n)).toBe(2);
    expect((await t.http.get('/users/me/two-factor').set(bearer(user.accountToken))).body).toMatchObject({ recoveryCodesLeft: 8 });
  });

  it('turns off only with the password and a code (or a recovery code); then login needs no code', async () => {
    const user = await verifiedUser(t, uniqueEmail('disable'));
    const { secret, recoveryCodes } = await turnOn(t, user);
    const off = (body: object) => t.http.delete('/users/me/two-factor').set(bearer(user.accountToken)).send(body);

    const noCode = await off({ password: PASSWORD });
    expect(noCode.status).toBe(400);
    expect(noCode.body).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining('code') });
    const wrongPassword = await off({ password: WRONG, code: codeAt(secret, t.clock()) });
    expect(wrongPassword.status).toBe(403);
    expect(wrongPassword.body).toMatchObject({ code: 'Forbidden' });
    const wrongCode = await off({ password: PASSWORD, code: 'zzzzz-zzzzz' });
    expect(wrongCode.status).toBe(403);
    expect(wrongCode.body).toMatchObject({ code: 'InvalidTwoFactorCode' });
    expect((await userRow(user.id)).two_factor_enabled_at).not.toBeNull();

    expect((await off({ password: PASSWORD, code: recoveryCodes[0]! })).status).toBe(204);
    const row = await userRow(user.id);
    expect(row).toMatchObject({ two_factor_secret: null, two_factor_enabled_at: null, two_factor_last_step: null });
    expect(await t.service.db('recovery_codes').where({ user_id: user.id })).toEqual([]);
    expect((await t.http.get('/users/me').set(bearer(user.accountToken))).body).toMatchObject({ twoFactor: false });
    expect((await login(t, user)).status).toBe(200);

    const again = await off({ password: PASSWORD, code: codeAt(secret, t.clock()) });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'TwoFactorNotEnabled' });
  });

  it("answers 503 TwoFactorUnavailable, not 500, when the stored secret does not open with this server's key (TWO_FACTOR_KEY_FILE replaced)", async () => {
    const user = await verifiedUser(t, uniqueEmail('key-changed'));
    const { secret } = await turnOn(t, user);
    // What a replaced key file looks like from here: the secret sealed with another key.
    const otherKey = new TwoFactorCrypto(Buffer.alloc(32, 7));
    await t.service
      .db('users')
      .where({ id: user.id })
      .update({ two_factor_secret: otherKey.encrypt(user.id, secret) });
    const res = await login(t, user, { code: codeAt(secret, t.clock()) });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.body).toEqual({ code: 'TwoFactorUnavailable', message: 'two-factor login cannot be checked on this server right now; try again later' });
  });

  it('refuses malformed two-factor input with 400 InvalidInput', async () => {
    const user = await verifiedUser(t, uniqueEmail('malformed'));
    for (const body of [{ code: 123456 }, { code: '' }, { code: 'x'.repeat(33) }, { code: '123456', remember: true }]) {
      const res = await login(t, user, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/^body/) });
    }
    const confirm = await t.http
      .post('/users/me/two-factor/confirm')
      .set(bearer(user.accountToken))
      .send({ code: ['123456'] });
    expect(confirm.status).toBe(400);
    expect(confirm.body).toMatchObject({ code: 'InvalidInput' });
  });

  it('records the calls as events of the user, by route, never with a code', async () => {
    const user = await verifiedUser(t, uniqueEmail('events'));
    const { secret, recoveryCodes } = await turnOn(t, user);
    const code = codeAt(secret, t.clock());
    expectRefusal(await login(t, user), 401, 'TwoFactorRequired');
    expect((await login(t, user, { code })).status).toBe(200);
    await t.settle();

    const events = (await t.http.get('/users/me/events').set(bearer(user.accountToken)).expect(200)).body as Array<{
      input: { method: string; route: string };
      output: { httpStatusCode: number };
    }>;
    const calls = events.map((event) => `${event.input.method} ${event.input.route} ${event.output.httpStatusCode}`).reverse();
    expect(calls).toEqual(
      expect.arrayContaining(['POST /users/me/two-factor 200', 'POST /users/me/two-factor/confirm 200', 'POST /auth 401', 'POST /auth 200']),
    );
    const stored = JSON.stringify(await t.service.db('events').where({ user_id: user.id }));
    for (const secretText of [secret, code, ...recoveryCodes]) expect(stored).not.toContain(secretText);
  });
});

describe('wrong two-factor codes in the login throttle', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts({ LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: '3', LOGIN_BLOCK_SECONDS: '600' });
  });
  afterAll(() => t.close());

  it('counts a wrong or missing code as a failed login: 429 after the limit, even with the right code', async () => {
    const user = await verifiedUser(t, uniqueEmail('guesser'));
    const { secret } = await turnOn(t, user);
    const right = codeAt(secret, t.clock());
    const wrong = right === '999999' ? '999998' : '999999';
    expectRefusal(await login(t, user, { code: wrong }), 401, 'InvalidTwoFactorCode');
    expectRefusal(await login(t, user, { code: wrong }), 401, 'InvalidTwoFactorCode');
    expectRefusal(await login(t, user), 401, 'TwoFactorRequired');

    const blocked = await login(t, user, { code: right });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'TooManyRequests' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts wrong codes when turning it off too', async () => {
    const user = await verifiedUser(t, uniqueEmail('disabler'));
    await turnOn(t, user);
    for (let i = 0; i < 3; i += 1) {
      const res = await t.http.delete('/users/me/two-factor').set(bearer(user.accountToken)).send({ password: PASSWORD, code: 'zzzzz-zzzzz' });
      expect(res.status).toBe(403);
    }
    const blocked = await t.http.delete('/users/me/two-factor').set(bearer(user.accountToken)).send({ password: PASSWORD, code: 'zzzzz-zzzzz' });
    expect(blocked.status).toBe(429);
  });
});

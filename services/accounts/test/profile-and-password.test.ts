import jwt from 'jsonwebtoken';
import { bearer, clientTokens, HOUR, PASSWORD, startTestAccounts, uniqueEmail, verifiedUser, type TestAccounts } from '../src/testing';

const ISO_MS_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NEW_PASSWORD = 'purple elephant dances 77';

interface UserRow {
  email: string;
  display_name: string;
  billing_address: Record<string, string>;
  credentials_version: number;
  password_hash: string;
}
const userRow = async (t: TestAccounts, id: string) => (await t.service.db('users').where({ id }).first()) as UserRow;

describe('GET /users/me', () => {
  let t: TestAccounts;
  let user: { id: string; email: string; accountToken: string };
  beforeAll(async () => {
    t = await startTestAccounts();
    user = await verifiedUser(t, uniqueEmail('profile'));
  });
  afterAll(() => t.close());

  it('returns exactly the profile fields (and whether two-factor login is on), with ISO 8601 UTC millisecond timestamps', async () => {
    const res = await t.http.get('/users/me').set(bearer(user.accountToken));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual([
      'billingAddress',
      'createdAt',
      'displayName',
      'email',
      'entityType',
      'id',
      'twoFactor',
      'updatedAt',
      'verifiedAt',
    ]);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, displayName: 'Test User', entityType: 'individual', twoFactor: false });
    expect(res.body.billingAddress).toEqual({ country: '', zipCode: '', address: '', state: '' });
    for (const field of ['createdAt', 'updatedAt', 'verifiedAt']) expect(res.body[field]).toMatch(ISO_MS_UTC);
    expect(res.body.createdAt).toBe(new Date(t.clock()).toISOString());
  });

  it('refuses a client access token and a refresh token with 401 naming the account access token', async () => {
    const { accessToken, refreshToken } = await clientTokens(t, user.accountToken);
    const cases: Array<[string, string]> = [
      [accessToken, 'client access token'],
      [refreshToken, 'client refresh token'],
    ];
    for (const [token, got] of cases) {
      const res = await t.http.get('/users/me').set(bearer(token));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('Unauthorized');
      expect(res.body.message).toMatch(new RegExp(`^expected an account access token, got a ${got}$`));
    }
  });

  it('refuses a garbage token and a tampered token with 401', async () => {
    const garbage = await t.http.get('/users/me').set(bearer('not-a-token'));
    expect(garbage.status).toBe(401);
    expect(garbage.body).toEqual({ code: 'Unauthorized', message: 'malformed token' });

    const [header, payload, signature] = user.accountToken.split('.');
    const forged = Buffer.from(JSON.stringify({ ...(jwt.decode(user.accountToken) as object), sub: 'user-someone-else' })).toString('base64url');
    const tampered = await t.http.get('/users/me').set(bearer(`${header}.${forged}.${signature}`));
    expect(tampered.status).toBe(401);
    expect(tampered.body).toEqual({ code: 'Unauthorized', message: 'invalid token' });
    expect(payload).not.toBe(forged);
  });

  it('refuses a request without a token with 401 and a Bearer challenge', async () => {
    const res = await t.http.get('/users/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('Unauthorized');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
  });
});

describe('PATCH /users/me', () => {
  let t: TestAccounts;
  let user: { id: string; email: string; accountToken: string };
  beforeAll(async () => {
    t = await startTestAccounts();
    user = await verifiedUser(t, uniqueEmail('patch'));
  });
  afterAll(() => t.close());

  const patch = (body: unknown) =>
    t.http
      .patch('/users/me')
      .set(bearer(user.accountToken))
      .send(body as object);

  it('changes the display name, moves updatedAt and stores the change', async () => {
    const before = (await t.http.get('/users/me').set(bearer(user.accountToken))).body as { createdAt: string; updatedAt: string };
    t.clock.advance(HOUR);
    const res = await patch({ displayName: '  Ada Lovelace  ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, displayName: 'Ada Lovelace', createdAt: before.createdAt });
    expect(res.body.updatedAt).toBe(new Date(t.clock()).toISOString());
    expect(Date.parse(res.body.updatedAt as string) - Date.parse(before.updatedAt)).toBe(HOUR);
    expect((await userRow(t, user.id)).display_name).toBe('Ada Lovelace');
    expect((await t.http.get('/users/me').set(bearer(user.accountToken))).body.displayName).toBe('Ada Lovelace');
  });

  it('merges a partial billing address into the stored one', async () => {
    expect((await patch({ billingAddress: { country: 'DE', zipCode: '10115' } })).status).toBe(200);
    t.clock.advance(HOUR);
    const res = await patch({ billingAddress: { address: 'Invalidenstr. 1' } });
    expect(res.status).toBe(200);
    const merged = { country: 'DE', zipCode: '10115', address: 'Invalidenstr. 1', state: '' };
    expect(res.body.billingAddress).toEqual(merged);
    expect(res.body.displayName).toBe('Ada Lovelace');
    expect(res.body.updatedAt).toBe(new Date(t.clock()).toISOString());
    expect((await userRow(t, user.id)).billing_address).toEqual(merged);
  });

  it.each([
    ['an empty body', {}, /^body: give displayName or billingAddress/],
    ['an unknown field', { nickname: 'ada' }, /^body: .*nickname/],
    ['an e-mail change', { email: 'new.address@example.com' }, /^body: .*email/],
    ['a display name that is not a string', { displayName: 42 }, /^body\.displayName: /],
    ['an empty display name', { displayName: '' }, /^body\.displayName: /],
    ['a display name of blanks', { displayName: '   ' }, /^body\.displayName: /],
    ['a too long display name', { displayName: 'x'.repeat(101) }, /^body\.displayName: /],
    ['a billing address that is not an object', { billingAddress: 'Berlin' }, /^body\.billingAddress: /],
    ['a billing field of the wrong type', { billingAddress: { country: 49 } }, /^body\.billingAddress\.country: /],
    ['an unknown billing field', { billingAddress: { planet: 'Mars' } }, /^body\.billingAddress: .*planet/],
  ])('refuses %s with 400 InvalidInput and changes nothing', async (_name, body, message) => {
    const before = await userRow(t, user.id);
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('InvalidInput');
    expect(res.body.message).toMatch(message);
    expect(await userRow(t, user.id)).toEqual(before);
  });
});

describe('PUT /users/me/password', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts();
  });
  afterAll(() => t.close());

  const change = (token: string, body: unknown) =>
    t.http
      .put('/users/me/password')
      .set(bearer(token))
      .send(body as object);

  it.each([
    ['a wrong old password', { oldPassword: 'not my password 1', newPassword: NEW_PASSWORD }, 403, 'Forbidden', /old password is wrong/],
    ['a weak new password', { oldPassword: PASSWORD, newPassword: 'short1' }, 400, 'InvalidInput', /^body\.newPassword: /],
    ['a new password without digits or symbols', { oldPassword: PASSWORD, newPassword: 'onlylettershere' }, 400, 'InvalidInput', /^body\.newPassword: /],
    ['the old password as the new one', { oldPassword: PASSWORD, newPassword: PASSWORD }, 400, 'InvalidInput', /^body\.newPassword: must differ/],
    ['a missing new password', { oldPassword: PASSWORD }, 400, 'InvalidInput', /body\.newPassword: /],
    ['a missing old password', { newPassword: NEW_PASSWORD }, 400, 'InvalidInput', /body\.oldPassword: /],
    ['an empty body', {}, 400, 'InvalidInput', /body\.oldPassword: .*body\.newPassword: /],
    ['an unknown field', { oldPassword: PASSWORD, newPassword: NEW_PASSWORD, email: 'x@example.com' }, 400, 'InvalidInput', /^body: /],
  ])('refuses %s and keeps the password', async (_name, body, status, code, message) => {
    const user = await verifiedUser(t, uniqueEmail('keep'));
    const before = await userRow(t, user.id);
    const res = await change(user.accountToken, body);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.message).toMatch(message);
    expect(await userRow(t, user.id)).toEqual(before);
    expect((await t.http.post('/auth').auth(user.email, PASSWORD)).status).toBe(200);
  });

  it('changes the password, returns a working token and revokes every token issued before', async () => {
    const user = await verifiedUser(t, uniqueEmail('changer'));
    const client = await clientTokens(t, user.accountToken);
    const before = await userRow(t, user.id);
    t.clock.advance(HOUR);

    const res = await change(user.accountToken, { oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object)).toEqual(['accessToken', 'ended', 'message']);
    const newToken = res.body.accessToken as string;
    expect(jwt.decode(newToken)).toMatchObject({ kind: 'account', sub: user.id, ver: before.credentials_version + 1 });
    const me = await t.http.get('/users/me').set(bearer(newToken));
    expect(me.status).toBe(200);
    expect(me.body.updatedAt).toBe(new Date(t.clock()).toISOString());

    const after = await userRow(t, user.id);
    expect(after.credentials_version).toBe(before.credentials_version + 1);
    expect(after.password_hash).not.toBe(before.password_hash);
    expect(after.password_hash).not.toContain(NEW_PASSWORD);

    const old = await t.http.get('/users/me').set(bearer(user.accountToken));
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ code: 'Unauthorized', message: 'token has been revoked' });

    const refresh = await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken: client.refreshToken });
    expect(refresh.status).toBe(401);
    expect(refresh.body).toEqual({ code: 'Unauthorized', message: 'the refresh token has been revoked' });

    expect((await t.http.post('/auth').auth(user.email, PASSWORD)).status).toBe(401);
    const login = await t.http.post('/auth').auth(user.email, NEW_PASSWORD);
    expect(login.status).toBe(200);
    expect((await t.http.get('/users/me').set(bearer(login.body.accessToken as string))).status).toBe(200);
  });

  it('refuses a second change made with the revoked token', async () => {
    const user = await verifiedUser(t, uniqueEmail('twice'));
    await change(user.accountToken, { oldPassword: PASSWORD, newPassword: NEW_PASSWORD }).expect(200);
    const again = await change(user.accountToken, { oldPassword: NEW_PASSWORD, newPassword: 'another fine phrase 3' });
    expect(again.status).toBe(401);
    expect((await userRow(t, user.id)).credentials_version).toBe(1);
  });
});

describe('PUT /users/me/password throttling', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts({ LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 after 3 wrong old passwords, even for the right one, and blocks logins of that account from that address too', async () => {
    const user = await verifiedUser(t, uniqueEmail('guesser'));
    for (let i = 0; i < 3; i += 1) {
      const res = await t.http
        .put('/users/me/password')
        .set(bearer(user.accountToken))
        .send({ oldPassword: `guess number ${i}!`, newPassword: NEW_PASSWORD });
      expect(res.status).toBe(403);
    }
    const blocked = await t.http.put('/users/me/password').set(bearer(user.accountToken)).send({ oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'TooManyRequests' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await userRow(t, user.id)).credentials_version).toBe(0);

    expect((await t.http.post('/auth').auth(user.email, PASSWORD)).status).toBe(429);
    const other = await verifiedUser(t, uniqueEmail('innocent'));
    expect((await t.http.get('/users/me').set(bearer(other.accountToken))).status).toBe(200);
  });
});

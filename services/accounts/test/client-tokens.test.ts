import type { TokenClaims } from '@cloud/auth';
import jwt from 'jsonwebtoken';
import { ClientKeysRepository } from '../src/data-access/client-keys.repository';
import { UsersRepository } from '../src/data-access/users.repository';
import { databaseRevocationCheck } from '../src/domain/token-revocation';
import { bearer, clientTokens, DAY, PASSWORD, startTestAccounts, verifiedUser, type TestAccounts } from '../src/testing';

const claimsOf = (token: string) => jwt.decode(token) as TokenClaims;
const UNAUTHORIZED_CLIENT = { code: 'Unauthorized', message: 'wrong clientId or clientSecret' };

describe('POST /auth/token', () => {
  let t: TestAccounts;
  let user: Awaited<ReturnType<typeof verifiedUser>>;
  let key: { clientId: string; clientSecret: string };
  beforeAll(async () => {
    t = await startTestAccounts();
    user = await verifiedUser(t);
    const res = await t.http.post('/users/me/client-keys').set(bearer(user.accountToken)).expect(200);
    const { clientId, clientSecret } = res.body as typeof key;
    key = { clientId, clientSecret };
  });
  afterAll(() => t.close());

  const token = (body: unknown) => t.http.post('/auth/token').send(body as object);

  describe('grantType clientCredentials', () => {
    it('trades a key pair for a 1-hour client access token and a 1-year refresh token naming the key', async () => {
      const res = await token({ grantType: 'clientCredentials', ...key });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body as object).sort()).toEqual(['accessToken', 'refreshToken']);
      const { accessToken, refreshToken } = res.body as { accessToken: string; refreshToken: string };
      for (const value of [accessToken, refreshToken]) expect(value).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      const access = claimsOf(accessToken);
      const refresh = claimsOf(refreshToken);
      expect(access).toMatchObject({ sub: user.id, kind: 'client', cid: key.clientId, iss: 'cloud-accounts' });
      expect(refresh).toMatchObject({ sub: user.id, kind: 'refresh', cid: key.clientId, iss: 'cloud-accounts' });
      expect(access.iat).toBe(Math.floor(t.clock() / 1000));
      expect(access.exp - access.iat).toBe(3600);
      expect(refresh.exp - refresh.iat).toBe(31_536_000);
      expect(access.jti).not.toBe(refresh.jti);
    });

    it('refuses a wrong secret and an unknown client id alike (401)', async () => {
      const wrongSecret = await token({ grantType: 'clientCredentials', clientId: key.clientId, clientSecret: 'x'.repeat(80) });
      expect(wrongSecret.status).toBe(401);
      expect(wrongSecret.body).toEqual(UNAUTHORIZED_CLIENT);
      const unknownId = await token({ grantType: 'clientCredentials', clientId: 'y'.repeat(40), clientSecret: key.clientSecret });
      expect(unknownId.status).toBe(401);
      expect(unknownId.body).toEqual(UNAUTHORIZED_CLIENT);
    });

    it.each([
      ['grantType is missing', { clientId: 'a', clientSecret: 'b' }, 'body.grantType'],
      ['grantType is unknown', { grantType: 'password', clientId: 'a', clientSecret: 'b' }, 'body.grantType'],
      ['clientSecret is missing', { grantType: 'clientCredentials', clientId: 'a' }, 'body.clientSecret'],
      ['clientId is missing', { grantType: 'clientCredentials', clientSecret: 'b' }, 'body.clientId'],
      ['clientId is not a string', { grantType: 'clientCredentials', clientId: 42, clientSecret: 'b' }, 'body.clientId'],
      ['grantType is not a string', { grantType: 1, clientId: 'a', clientSecret: 'b' }, 'body.grantType'],
      ['refreshToken is missing', { grantType: 'refreshToken' }, 'body.refreshToken'],
      ['refreshToken is not a string', { grantType: 'refreshToken', refreshToken: ['a.b.c'] }, 'body.refreshToken'],
      ['the body is an array', [], 'body'],
    ])('answers 400 InvalidInput naming the field when %s', async (_case, body, field) => {
      const res = await token(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'InvalidInput' });
      expect((res.body as { message: string }).message).toContain(`${field}:`);
    });

    it('answers 400 InvalidInput to a body that is not JSON', async () => {
      const res = await t.http.post('/auth/token').set('content-type', 'application/json').send('{"grantType": clientCredentials');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'InvalidInput', message: 'the request body is not valid JSON' });
    });
  });

  describe('grantType refreshToken', () => {
    it('trades a refresh token for a new client access token of the same user and key', async () => {
      const tokens = await clientTokens(t, user.accountToken);
      t.clock.advance(10 * 60_000);
      const res = await token({ grantType: 'refreshToken', refreshToken: tokens.refreshToken });
      expect(res.status).toBe(200);
      const { accessToken } = res.body as { accessToken: string };
      expect(accessToken).not.toBe(tokens.accessToken);
      const claims = claimsOf(accessToken);
      expect(claims).toMatchObject({ sub: user.id, kind: 'client', cid: tokens.clientId });
      expect(claims.iat).toBe(Math.floor(t.clock() / 1000));
      expect(claims.exp - claims.iat).toBe(3600);
    });

    it('refuses a client access token or an account token passed as the refresh token (401)', async () => {
      const tokens = await clientTokens(t, user.accountToken);
      const access = await token({ grantType: 'refreshToken', refreshToken: tokens.accessToken });
      expect(access.status).toBe(401);
      expect(access.body).toEqual({ code: 'Unauthorized', message: expect.stringMatching(/refresh token, got a client access token/) as unknown });
      const account = await token({ grantType: 'refreshToken', refreshToken: user.accountToken });
      expect(account.status).toBe(401);
      expect(account.body).toEqual({ code: 'Unauthorized', message: expect.stringMatching(/refresh token, got an account access token/) as unknown });
    });

    it('refuses garbage and a refresh token with a forged signature (401)', async () => {
      const garbage = await token({ grantType: 'refreshToken', refreshToken: 'not-a-token' });
      expect(garbage.status).toBe(401);
      expect(garbage.body).toEqual({ code: 'Unauthorized', message: 'malformed token' });

      const { refreshToken } = await clientTokens(t, user.accountToken);
      const [header, payload] = refreshToken.split('.');
      const forged = await token({ grantType: 'refreshToken', refreshToken: `${header}.${payload}.${'A'.repeat(86)}` });
      expect(forged.status).toBe(401);
      expect(forged.body).toEqual({ code: 'Unauthorized', message: 'invalid token' });
    });

    it('stops accepting the refresh token once its key is deleted', async () => {
      const tokens = await clientTokens(t, user.accountToken);
      await t.http.delete(`/users/me/client-keys/${tokens.clientId}`).set(bearer(user.accountToken)).expect(204);
      const res = await token({ grantType: 'refreshToken', refreshToken: tokens.refreshToken });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'Unauthorized', message: 'the refresh token has been revoked' });
      const credentials = await token({ grantType: 'clientCredentials', clientId: tokens.clientId, clientSecret: tokens.clientSecret });
      expect(credentials.status).toBe(401);
    });
  });
});

describe('refresh token expiry (fake clock)', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts();
  });
  afterAll(() => t.close());

  it('accepts the refresh token for a year and refuses it after', async () => {
    const user = await verifiedUser(t);
    const { refreshToken } = await clientTokens(t, user.accountToken);
    t.clock.advance(364 * DAY);
    const late = await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken });
    expect(late.status).toBe(200);
    t.clock.advance(2 * DAY);
    const expired = await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ code: 'Unauthorized', message: 'token expired' });
  });
});

describe('databaseRevocationCheck (domain/token-revocation)', () => {
  let t: TestAccounts;
  let isRevoked: (claims: TokenClaims) => Promise<boolean>;
  beforeAll(async () => {
    t = await startTestAccounts();
    isRevoked = databaseRevocationCheck(new UsersRepository(t.service.db), new ClientKeysRepository(t.service.db));
  });
  afterAll(() => t.close());

  it("revokes a client token's claims once its key is deleted", async () => {
    const user = await verifiedUser(t);
    const tokens = await clientTokens(t, user.accountToken);
    expect(await isRevoked(claimsOf(tokens.accessToken))).toBe(false);
    expect(await isRevoked(claimsOf(tokens.refreshToken))).toBe(false);
    await t.http.delete(`/users/me/client-keys/${tokens.clientId}`).set(bearer(user.accountToken)).expect(204);
    expect(await isRevoked(claimsOf(tokens.accessToken))).toBe(true);
    expect(await isRevoked(claimsOf(tokens.refreshToken))).toBe(true);
  });

  it('revokes account and client claims once the password changes (credentials version bump)', async () => {
    const user = await verifiedUser(t);
    const tokens = await clientTokens(t, user.accountToken);
    const account = claimsOf(user.accountToken);
    expect(account.cid).toBeUndefined();
    expect(await isRevoked(account)).toBe(false);
    expect(await isRevoked(claimsOf(tokens.accessToken))).toBe(false);

    const change = await t.http
      .put('/users/me/password')
      .set(bearer(user.accountToken))
      .send({ oldPassword: PASSWORD, newPassword: 'another horse battery 43' });
    expect(change.status).toBe(200);
    const stored = (await t.service.db('users').where({ id: user.id }).first()) as { credentials_version: number | string };
    expect(Number(stored.credentials_version)).toBe(account.ver + 1);

    expect(await isRevoked(account)).toBe(true);
    expect(await isRevoked(claimsOf(tokens.accessToken))).toBe(true);
    expect(await isRevoked(claimsOf(tokens.refreshToken))).toBe(true);
    const fresh = claimsOf((change.body as { accessToken: string }).accessToken);
    expect(await isRevoked(fresh)).toBe(false);
  });

  it("revokes claims whose cid names another user's key, a client token without cid, and an unknown user", async () => {
    const alice = await verifiedUser(t);
    const bob = await verifiedUser(t);
    const aliceTokens = await clientTokens(t, alice.accountToken);
    const bobTokens = await clientTokens(t, bob.accountToken);
    const aliceClaims = claimsOf(aliceTokens.accessToken);
    expect(await isRevoked(aliceClaims)).toBe(false);
    expect(await isRevoked({ ...aliceClaims, cid: bobTokens.clientId })).toBe(true);
    expect(await isRevoked({ ...aliceClaims, cid: undefined })).toBe(true);
    expect(await isRevoked({ ...claimsOf(alice.accountToken), cid: bobTokens.clientId })).toBe(true);
    expect(await isRevoked({ ...aliceClaims, sub: 'user-00000000-0000-4000-8000-000000000000' })).toBe(true);
  });
});

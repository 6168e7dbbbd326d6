import jwt from 'jsonwebtoken';
import { bearer, PASSWORD, startTestAccounts, uniqueEmail, type TestAccounts } from '../src/testing';

describe('the whole flow: sign-up → e-mail → verify → login → key → client token → refresh → delete key', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts();
  });
  afterAll(() => t.close());

  it('works end to end, and a deleted key refuses its refresh token', async () => {
    const email = uniqueEmail('flow');
    const signUp = await t.http.post('/users').send({ email, password: PASSWORD, displayName: 'Flow' });
    expect(signUp.status).toBe(201);
    const userId = signUp.body.id as string;
    expect(userId).toMatch(/^user-[0-9a-f-]{36}$/);

    const token = await t.verificationTokenFor(email);
    const verify = await t.http.put(`/users/${userId}/token/${token}`);
    expect(verify.status).toBe(200);
    expect(verify.body.verifiedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const login = await t.http.post('/auth').auth(email, PASSWORD);
    expect(login.status).toBe(200);
    const accountToken = login.body.accessToken as string;
    expect(jwt.decode(accountToken)).toMatchObject({ sub: userId, kind: 'account' });

    const me = await t.http.get('/users/me').set(bearer(accountToken));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: userId, email, displayName: 'Flow', entityType: 'individual' });

    const key = await t.http.post('/users/me/client-keys').set(bearer(accountToken));
    expect(key.status).toBe(200);
    const { clientId, clientSecret } = key.body as { clientId: string; clientSecret: string };

    const tokens = await t.http.post('/auth/token').send({ grantType: 'clientCredentials', clientId, clientSecret });
    expect(tokens.status).toBe(200);
    expect(jwt.decode(tokens.body.accessToken as string)).toMatchObject({ sub: userId, kind: 'client', cid: clientId });
    expect(jwt.decode(tokens.body.refreshToken as string)).toMatchObject({ sub: userId, kind: 'refresh', cid: clientId });

    const refreshed = await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken: tokens.body.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(jwt.decode(refreshed.body.accessToken as string)).toMatchObject({ sub: userId, kind: 'client' });

    expect((await t.http.delete(`/users/me/client-keys/${clientId}`).set(bearer(accountToken))).status).toBe(204);

    const refused = await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken: tokens.body.refreshToken });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ code: 'Unauthorized', message: 'the refresh token has been revoked' });
    const noMoreCredentials = await t.http.post('/auth/token').send({ grantType: 'clientCredentials', clientId, clientSecret });
    expect(noMoreCredentials.status).toBe(401);

    await t.settle();
    const events = await t.http.get('/users/me/events').set(bearer(accountToken));
    expect(events.status).toBe(200);
    const calls = (events.body as Array<{ input: { method: string; route: string }; output: { httpStatusCode: number } }>).map(
      (event) => `${event.input.method} ${event.input.route} ${event.output.httpStatusCode}`,
    );
    // The last call (credentials of the deleted key) names no existing key, so no user: not recorded.
    expect(calls).toEqual([
      'POST /auth/token 401',
      'DELETE /users/me/client-keys/:id 204',
      'POST /auth/token 200',
      'POST /auth/token 200',
      'POST /users/me/client-keys 200',
      'GET /users/me 200',
      'POST /auth 200',
      'PUT /users/:userId/token/:token 200',
      'POST /users 201',
    ]);
  });
});

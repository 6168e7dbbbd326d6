import { createHash } from 'node:crypto';
import { bearer, clientTokens, startTestAccounts, verifiedUser, type TestAccounts } from '../src/testing';

interface NewKey {
  clientId: string;
  clientSecret: string;
  createdAt: string;
}

interface KeyRow {
  id: string;
  user_id: string;
  secret_hash: string;
  created_at: Date;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The user's stored key rows, sorted by id. */
const keysOf = async (t: TestAccounts, userId: string): Promise<KeyRow[]> =>
  ((await t.service.db('client_keys').where({ user_id: userId })) as KeyRow[]).sort(byId);

describe('client keys: create, list, delete (POST/GET/DELETE /users/me/client-keys)', () => {
  let t: TestAccounts;
  let alice: Awaited<ReturnType<typeof verifiedUser>>;
  let bob: Awaited<ReturnType<typeof verifiedUser>>;
  beforeAll(async () => {
    t = await startTestAccounts();
    alice = await verifiedUser(t);
    bob = await verifiedUser(t);
  });
  afterAll(() => t.close());

  const create = async (accountToken: string): Promise<NewKey> => {
    const res = await t.http.post('/users/me/client-keys').set(bearer(accountToken));
    expect(res.status).toBe(200);
    return res.body as NewKey;
  };

  it('creates a key pair: a 40-character client id, an 80-character secret and the creation time', async () => {
    const res = await t.http.post('/users/me/client-keys').set(bearer(alice.accountToken));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual(['clientId', 'clientSecret', 'createdAt']);
    const key = res.body as NewKey;
    expect(key.clientId).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(key.clientSecret).toMatch(/^[A-Za-z0-9]{80}$/);
    expect(key.createdAt).toBe(new Date(t.clock()).toISOString());
  });

  it('stores only a keyed 64-hex hash of the secret, never the secret itself', async () => {
    const key = await create(alice.accountToken);
    const row = (await t.service.db('client_keys').where({ id: key.clientId }).first()) as Record<string, unknown>;
    expect(row).toMatchObject({ id: key.clientId, user_id: alice.id });
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.secret_hash).not.toBe(key.clientSecret);
    // Keyed (HMAC), so not even a plain SHA-256 of the secret.
    expect(row.secret_hash).not.toBe(createHash('sha256').update(key.clientSecret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key.clientSecret);
  });

  it('makes a different id and secret every time', async () => {
    const [first, second] = [await create(alice.accountToken), await create(alice.accountToken)];
    expect(first.clientId).not.toBe(second.clientId);
    expect(first.clientSecret).not.toBe(second.clientSecret);
  });

  it("lists only the caller's keys, as {id, createdAt} without secret or hash", async () => {
    const bobKey = await create(bob.accountToken);
    const res = await t.http.get('/users/me/client-keys').set(bearer(alice.accountToken));
    expect(res.status).toBe(200);
    const stored = await keysOf(t, alice.id);
    expect(stored.length).toBeGreaterThanOrEqual(3);
    const listed = [...(res.body as Array<{ id: string; createdAt: string }>)].sort(byId);
    expect(listed).toEqual(stored.map((row) => ({ id: row.id, createdAt: row.created_at.toISOString() })));
    for (const summary of res.body as object[]) expect(Object.keys(summary).sort()).toEqual(['createdAt', 'id']);
    expect(listed.map((key) => key.id)).not.toContain(bobKey.clientId);

    const bobs = await t.http.get('/users/me/client-keys').set(bearer(bob.accountToken));
    expect(bobs.body).toEqual([{ id: bobKey.clientId, createdAt: bobKey.createdAt }]);
  });

  it('deletes a key with 204: it leaves the list and the database', async () => {
    const key = await create(alice.accountToken);
    const res = await t.http.delete(`/users/me/client-keys/${key.clientId}`).set(bearer(alice.accountToken));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const list = await t.http.get('/users/me/client-keys').set(bearer(alice.accountToken));
    expect((list.body as Array<{ id: string }>).map((k) => k.id)).not.toContain(key.clientId);
    expect(await t.service.db('client_keys').where({ id: key.clientId }).first()).toBeUndefined();

    const again = await t.http.delete(`/users/me/client-keys/${key.clientId}`).set(bearer(alice.accountToken));
    expect(again.status).toBe(404);
  });

  it("answers 404 for another user's key and leaves that key in place", async () => {
    const bobKey = await create(bob.accountToken);
    const res = await t.http.delete(`/users/me/client-keys/${bobKey.clientId}`).set(bearer(alice.accountToken));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'NotFound', message: 'no such client key' });
    expect(await t.service.db('client_keys').where({ id: bobKey.clientId }).first()).toMatchObject({ user_id: bob.id });
    const bobs = await t.http.get('/users/me/client-keys').set(bearer(bob.accountToken));
    expect((bobs.body as Array<{ id: string }>).map((k) => k.id)).toContain(bobKey.clientId);
  });

  it('answers 404 for an unknown key id', async () => {
    const before = await keysOf(t, alice.id);
    const res = await t.http.delete(`/users/me/client-keys/${'x'.repeat(40)}`).set(bearer(alice.accountToken));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NotFound' });
    expect(await keysOf(t, alice.id)).toEqual(before);
  });

  it('refuses every key operation without a token (401) and creates nothing', async () => {
    const before = await t.service.db('client_keys').count({ n: '*' });
    for (const res of [
      await t.http.post('/users/me/client-keys'),
      await t.http.get('/users/me/client-keys'),
      await t.http.delete(`/users/me/client-keys/${'x'.repeat(40)}`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'Unauthorized' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
    }
    expect(await t.service.db('client_keys').count({ n: '*' })).toEqual(before);
  });

  it('refuses a client access token where an account token is required (401)', async () => {
    const { accessToken, clientId } = await clientTokens(t, alice.accountToken);
    const countBefore = (await keysOf(t, alice.id)).length;
    const created = await t.http.post('/users/me/client-keys').set(bearer(accessToken));
    const listed = await t.http.get('/users/me/client-keys').set(bearer(accessToken));
    const deleted = await t.http.delete(`/users/me/client-keys/${clientId}`).set(bearer(accessToken));
    for (const res of [created, listed, deleted]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'Unauthorized', message: expect.stringMatching(/got a client access token/) as unknown });
    }
    expect(await keysOf(t, alice.id)).toHaveLength(countBefore);
    expect(await t.service.db('client_keys').where({ id: clientId }).first()).toBeDefined();
  });
});

describe('client key limit (MAX_CLIENT_KEYS_PER_USER)', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts({ MAX_CLIENT_KEYS_PER_USER: '2' });
  });
  afterAll(() => t.close());

  it('refuses a key beyond the limit with 403 LimitExceeded, and allows one again after a deletion', async () => {
    const user = await verifiedUser(t);
    const post = () => t.http.post('/users/me/client-keys').set(bearer(user.accountToken));
    const first = await post();
    expect(first.status).toBe(200);
    expect((await post()).status).toBe(200);

    const third = await post();
    expect(third.status).toBe(403);
    expect(third.body).toMatchObject({ code: 'LimitExceeded', message: expect.stringContaining('2') as unknown });
    expect(await keysOf(t, user.id)).toHaveLength(2);

    // The limit is per user: someone else still gets keys.
    const other = await verifiedUser(t);
    expect((await t.http.post('/users/me/client-keys').set(bearer(other.accountToken))).status).toBe(200);

    await t.http
      .delete(`/users/me/client-keys/${(first.body as NewKey).clientId}`)
      .set(bearer(user.accountToken))
      .expect(204);
    const again = await post();
    expect(again.status).toBe(200);
    expect(await keysOf(t, user.id)).toHaveLength(2);
  });

  it('lets exactly the limit through when creations race', async () => {
    const user = await verifiedUser(t);
    const results = await Promise.all(Array.from({ length: 5 }, () => t.http.post('/users/me/client-keys').set(bearer(user.accountToken))));
    const statuses = results.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 200, 403, 403, 403]);
    for (const res of results.filter((r) => r.status === 403)) expect(res.body).toMatchObject({ code: 'LimitExceeded' });
    const stored = await keysOf(t, user.id);
    expect(stored.map((row) => row.id).sort()).toEqual(
      results
        .filter((r) => r.status === 200)
        .map((r) => (r.body as NewKey).clientId)
        .sort(),
    );
  });
});

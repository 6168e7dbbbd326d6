import { REVOCATION_RELEVANT_MS, TOKEN_LIFETIME_SECONDS } from '@cloud/auth';
import type { AnyBusMessage } from '@cloud/bus';
import { bearer, clientTokens, PASSWORD, startTestAccounts, verifiedUser, waitUntil, type TestAccounts } from '../src/testing';

type User = Awaited<ReturnType<typeof verifiedUser>>;

interface RevocationRow {
  kind: string;
  user_id: string;
  client_id: string | null;
  credentials_version: number | null;
  created_at: Date;
}

const NEW_PASSWORD = 'another horse battery 43';
const THIRD_PASSWORD = 'yet another horse 44!';

describe('revocations at the accounts service (in-process bus)', () => {
  let t: TestAccounts;
  /** Every revocation announced on the service's bus, as another service would receive it. */
  const announced: AnyBusMessage[] = [];

  beforeAll(async () => {
    t = await startTestAccounts();
    expect(t.service.bus.transport).toBe('in-process');
    await t.service.bus.subscribe({
      name: 'test.revocations',
      bindings: ['revocation.*'],
      batchSize: 100,
      handle: (messages) => {
        announced.push(...messages);
        return Promise.resolve();
      },
    });
  });
  afterAll(() => t.close());

  const revocationsOf = async (userId: string): Promise<RevocationRow[]> =>
    (await t.service.db('revocations').where({ user_id: userId }).orderBy('seq')) as RevocationRow[];
  const count = async (table: string, where: Record<string, string>): Promise<number> => {
    const [{ n }] = (await t.service.db(table).where(where).count({ n: '*' })) as [{ n: string | number }];
    return Number(n);
  };
  const outboxRows = async (): Promise<number> => {
    const [{ n }] = (await t.service.db('outbox').count({ n: '*' })) as [{ n: string | number }];
    return Number(n);
  };
  const announcedTo = (userId: string) => announced.filter((message) => message.payload && 'userId' in message.payload && message.payload.userId === userId);
  const deleteMe = (user: User, body?: unknown) => {
    const req = t.http.delete('/users/me').set(bearer(user.accountToken));
    return body === undefined ? req : req.send(body as object);
  };

  describe('DELETE /users/me', () => {
    it('with the right password: 204, and the user, their client keys and their events are gone with a user-deleted revocation', async () => {
      const alice = await verifiedUser(t);
      const tokens = await clientTokens(t, alice.accountToken);
      const bob = await verifiedUser(t);
      await t.http.get('/users/me').set(bearer(alice.accountToken)).expect(200);
      await t.settle();
      expect(await count('events', { user_id: alice.id })).toBeGreaterThanOrEqual(4);
      expect(await count('client_keys', { user_id: alice.id })).toBe(1);
      const bobEvents = await count('events', { user_id: bob.id });

      const res = await deleteMe(alice, { password: PASSWORD });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');

      // Committed together, before the response.
      expect(await t.service.db('users').where({ id: alice.id }).first()).toBeUndefined();
      expect(await count('client_keys', { user_id: alice.id })).toBe(0);
      expect(await count('events', { user_id: alice.id })).toBe(0);
      const rows = await revocationsOf(alice.id);
      expect(rows).toEqual([
        {
          seq: expect.anything(),
          kind: 'revocation.user-deleted',
          user_id: alice.id,
          client_id: null,
          credentials_version: null,
          created_at: new Date(t.clock()),
        },
      ]);

      // The call that deleted the user is not recorded for them afterwards either.
      await t.settle();
      expect(await count('events', { user_id: alice.id })).toBe(0);

      // Every token of theirs is dead here.
      const me = await t.http.get('/users/me').set(bearer(alice.accountToken));
      expect(me.status).toBe(401);
      expect(me.body).toMatchObject({ code: 'Unauthorized' });
      await t.http.post('/auth/token').send({ grantType: 'clientCredentials', clientId: tokens.clientId, clientSecret: tokens.clientSecret }).expect(401);
      await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken: tokens.refreshToken }).expect(401);
      await t.http.post('/auth').auth(alice.email, PASSWORD).expect(401);

      // The relay publishes the revocation and empties the outbox; other services hear of it.
      await waitUntil('the outbox is empty', async () => (await outboxRows()) === 0);
      await waitUntil('the user-deleted revocation is announced', () => announcedTo(alice.id).some((message) => message.kind === 'revocation.user-deleted'));
      expect(announcedTo(alice.id)).toEqual([
        { id: expect.stringMatching(/^msg-/), kind: 'revocation.user-deleted', occurredAt: new Date(t.clock()).toISOString(), payload: { userId: alice.id } },
      ]);

      // Nobody else is touched.
      await t.http.get('/users/me').set(bearer(bob.accountToken)).expect(200);
      await t.settle();
      expect(await count('events', { user_id: bob.id })).toBeGreaterThan(bobEvents);
      expect(await revocationsOf(bob.id)).toEqual([]);

      // The address is free again.
      await t.http.post('/users').send({ email: alice.email, password: PASSWORD, displayName: 'Alice again' }).expect(201);
    });

    it('with a wrong password: 403 Forbidden, and nothing is deleted or revoked', async () => {
      const carl = await verifiedUser(t);
      await clientTokens(t, carl.accountToken);
      const res = await deleteMe(carl, { password: 'not the password 1' });
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ code: 'Forbidden', message: expect.any(String) });
      expect(await t.service.db('users').where({ id: carl.id }).first()).toBeDefined();
      expect(await count('client_keys', { user_id: carl.id })).toBe(1);
      expect(await revocationsOf(carl.id)).toEqual([]);
      await t.http.get('/users/me').set(bearer(carl.accountToken)).expect(200);
    });

    it.each([
      ['an empty body', {}],
      ['no body at all', undefined],
      ['an extra field', { password: PASSWORD, extra: true }],
      ['a password that is not a string', { password: 42 }],
      ['an empty password', { password: '' }],
    ])('with %s: 400 InvalidInput, and nothing is deleted', async (_label, body) => {
      const dana = await verifiedUser(t);
      const res = await deleteMe(dana, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'InvalidInput', message: expect.stringMatching(/^body/) });
      expect(await t.service.db('users').where({ id: dana.id }).first()).toBeDefined();
      expect(await revocationsOf(dana.id)).toEqual([]);
    });

    it('without a token, or with a client token: 401, and nothing is deleted', async () => {
      const erin = await verifiedUser(t);
      const tokens = await clientTokens(t, erin.accountToken);
      const anonymous = await t.http.delete('/users/me').send({ password: PASSWORD });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ code: 'Unauthorized' });
      expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
      const client = await t.http.delete('/users/me').set(bearer(tokens.accessToken)).send({ password: PASSWORD });
      expect(client.status).toBe(401);
      expect(await t.service.db('users').where({ id: erin.id }).first()).toBeDefined();
      expect(await revocationsOf(erin.id)).toEqual([]);
    });

    it('is all or nothing: when the revocation cannot be written, the user is not deleted', async () => {
      const fay = await verifiedUser(t);
      await clientTokens(t, fay.accountToken);
      await t.service.db.schema.renameTable('revocations', 'revocations_away');
      let res;
      try {
        res = await deleteMe(fay, { password: PASSWORD });
      } finally {
        await t.service.db.schema.renameTable('revocations_away', 'revocations');
      }
      expect(res.status).toBe(500);
      expect(await t.service.db('users').where({ id: fay.id }).first()).toBeDefined();
      expect(await count('client_keys', { user_id: fay.id })).toBe(1);
      await t.http.get('/users/me').set(bearer(fay.accountToken)).expect(200);
      // Once the table is back, the same request goes through.
      await deleteMe(fay, { password: PASSWORD }).expect(204);
      expect((await revocationsOf(fay.id)).map((row) => row.kind)).toEqual(['revocation.user-deleted']);
    });
  });

  describe('password change and client key deletion', () => {
    it('a password change writes a credentials-changed revocation with the new version, committed with the change', async () => {
      const gus = await verifiedUser(t);
      const first = await t.http.put('/users/me/password').set(bearer(gus.accountToken)).send({ oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(first.status).toBe(200);
      const user = (await t.service.db('users').where({ id: gus.id }).first()) as { credentials_version: number };
      expect(user.credentials_version).toBe(1);
      expect(await revocationsOf(gus.id)).toEqual([
        {
          seq: expect.anything(),
          kind: 'revocation.credentials-changed',
          user_id: gus.id,
          client_id: null,
          credentials_version: 1,
          created_at: new Date(t.clock()),
        },
      ]);

      const newToken = (first.body as { accessToken: string }).accessToken;
      const second = await t.http.put('/users/me/password').set(bearer(newToken)).send({ oldPassword: NEW_PASSWORD, newPassword: THIRD_PASSWORD }).expect(200);
      const newestToken = (second.body as { accessToken: string }).accessToken;
      expect((await revocationsOf(gus.id)).map((row) => [row.kind, row.credentials_version])).toEqual([
        ['revocation.credentials-changed', 1],
        ['revocation.credentials-changed', 2],
      ]);

      // A refused change (wrong old password) revokes nothing.
      await t.http.put('/users/me/password').set(bearer(newestToken)).send({ oldPassword: 'wrong password 99', newPassword: NEW_PASSWORD }).expect(403);
      expect(await revocationsOf(gus.id)).toHaveLength(2);

      await waitUntil('both changes are announced', () => announcedTo(gus.id).length === 2);
      expect(announcedTo(gus.id).map((message) => [message.kind, message.payload])).toEqual([
        ['revocation.credentials-changed', { userId: gus.id, credentialsVersion: 1 }],
        ['revocation.credentials-changed', { userId: gus.id, credentialsVersion: 2 }],
      ]);
      await waitUntil('the outbox is empty', async () => (await outboxRows()) === 0);
    });

    it('a password change whose revocation cannot be written does not happen', async () => {
      const hal = await verifiedUser(t);
      await t.service.db.schema.renameTable('revocations', 'revocations_away');
      let res;
      try {
        res = await t.http.put('/users/me/password').set(bearer(hal.accountToken)).send({ oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
      } finally {
        await t.service.db.schema.renameTable('revocations_away', 'revocations');
      }
      expect(res.status).toBe(500);
      const user = (await t.service.db('users').where({ id: hal.id }).first()) as { credentials_version: number };
      expect(user.credentials_version).toBe(0);
      await t.http.get('/users/me').set(bearer(hal.accountToken)).expect(200);
      await t.http.post('/auth').auth(hal.email, PASSWORD).expect(200);
    });

    it('deleting a client key writes a client-key-deleted revocation naming the key, committed with the deletion', async () => {
      const ida = await verifiedUser(t);
      const jon = await verifiedUser(t);
      const kept = await clientTokens(t, ida.accountToken);
      const doomed = await clientTokens(t, ida.accountToken);
      const jonKey = await clientTokens(t, jon.accountToken);

      await t.http.delete(`/users/me/client-keys/${doomed.clientId}`).set(bearer(ida.accountToken)).expect(204);
      expect(await revocationsOf(ida.id)).toEqual([
        {
          seq: expect.anything(),
          kind: 'revocation.client-key-deleted',
          user_id: ida.id,
          client_id: doomed.clientId,
          credentials_version: null,
          created_at: new Date(t.clock()),
        },
      ]);
      expect(await t.service.db('client_keys').where({ id: doomed.clientId }).first()).toBeUndefined();

      // Someone else's key, or one already gone: 404 and no revocation.
      await t.http.delete(`/users/me/client-keys/${jonKey.clientId}`).set(bearer(ida.accountToken)).expect(404);
      await t.http.delete(`/users/me/client-keys/${doomed.clientId}`).set(bearer(ida.accountToken)).expect(404);
      expect(await revocationsOf(ida.id)).toHaveLength(1);
      expect(await revocationsOf(jon.id)).toEqual([]);
      expect(await t.service.db('client_keys').where({ id: jonKey.clientId }).first()).toBeDefined();

      await waitUntil('the deletion is announced', () => announcedTo(ida.id).length === 1);
      expect(announcedTo(ida.id).map((message) => [message.kind, message.payload])).toEqual([
        ['revocation.client-key-deleted', { userId: ida.id, clientId: doomed.clientId }],
      ]);
      await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken: doomed.refreshToken }).expect(401);
      await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken: kept.refreshToken }).expect(200);
    });

    it('a key deletion whose revocation cannot be written does not happen', async () => {
      const kim = await verifiedUser(t);
      const key = await clientTokens(t, kim.accountToken);
      await t.service.db.schema.renameTable('revocations', 'revocations_away');
      let res;
      try {
        res = await t.http.delete(`/users/me/client-keys/${key.clientId}`).set(bearer(kim.accountToken));
      } finally {
        await t.service.db.schema.renameTable('revocations_away', 'revocations');
      }
      expect(res.status).toBe(500);
      expect(await t.service.db('client_keys').where({ id: key.clientId }).first()).toBeDefined();
      await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken: key.refreshToken }).expect(200);
    });
  });

  describe('revocations.snapshot (served on the bus)', () => {
    it('folds every revocation still able to matter, and forgets those older than a client token lives', async () => {
      const lou = await verifiedUser(t);
      const key = await clientTokens(t, lou.accountToken);
      await t.http.delete(`/users/me/client-keys/${key.clientId}`).set(bearer(lou.accountToken)).expect(204);
      const changed = await t.http
        .put('/users/me/password')
        .set(bearer(lou.accountToken))
        .send({ oldPassword: PASSWORD, newPassword: NEW_PASSWORD })
        .expect(200);
      await t.http
        .put('/users/me/password')
        .set(bearer((changed.body as { accessToken: string }).accessToken))
        .send({ oldPassword: NEW_PASSWORD, newPassword: THIRD_PASSWORD })
        .expect(200);
      const max = await verifiedUser(t);
      await deleteMe(max, { password: PASSWORD }).expect(204);

      const snapshot = await t.service.bus.request('revocations.snapshot', {});
      expect(snapshot.clientKeys).toContainEqual({ userId: lou.id, clientId: key.clientId });
      // One entry per user: the highest version.
      expect(snapshot.credentials.filter((entry) => entry.userId === lou.id)).toEqual([{ userId: lou.id, credentialsVersion: 2 }]);
      expect(snapshot.users).toContain(max.id);
      expect(new Set(snapshot.users).size).toBe(snapshot.users.length);
      expect(snapshot.latestAt).toBe(new Date(t.clock()).toISOString());
      expect(snapshot.next).toBeNull();

      // Every revocation row so far carries this clock's time; other services accept only client tokens, which live an hour.
      expect(REVOCATION_RELEVANT_MS).toBe((TOKEN_LIFETIME_SECONDS.client + 60) * 1000);
      t.clock.advance(REVOCATION_RELEVANT_MS - 1000);
      const late = await t.service.bus.request('revocations.snapshot', {});
      expect(late.users).toContain(max.id);
      await expect(t.service.revocations.prune()).resolves.toBe(0);
      t.clock.advance(2000);
      expect(await t.service.bus.request('revocations.snapshot', {})).toEqual({ clientKeys: [], credentials: [], users: [], next: null });
      // And the rows are deleted, not only left out.
      await expect(t.service.revocations.prune()).resolves.toBeGreaterThanOrEqual(4);
      expect(Number((await t.service.db('revocations').count({ n: '*' }).first())?.n)).toBe(0);
    });

    it('answers in pages that name where the next one starts, until the last', async () => {
      const users: Awaited<ReturnType<typeof verifiedUser>>[] = [];
      for (let i = 0; i < 5; i += 1) users.push(await verifiedUser(t));
      for (const user of users) await deleteMe(user, { password: PASSWORD }).expect(204);
      const seen: string[] = [];
      const cursors: (string | undefined)[] = [];
      let after: string | undefined;
      do {
        cursors.push(after);
        const page = await t.service.bus.request('revocations.snapshot', { ...(after === undefined ? {} : { after }), limit: 2 });
        expect(page.users.length).toBeLessThanOrEqual(2);
        seen.push(...page.users);
        after = page.next ?? undefined;
      } while (after !== undefined);
      expect(cursors.length).toBeGreaterThanOrEqual(3);
      for (const user of users) expect(seen).toContain(user.id);
      await expect(t.service.bus.request('revocations.snapshot', { after: 'seq-1' })).rejects.toThrow(/bad snapshot cursor/);
    });
  });

  describe('GET /internal/revocations (the snapshot over HTTP, for a service that starts without the broker)', () => {
    it('answers the pages the bus does', async () => {
      const ned = await verifiedUser(t);
      const key = await clientTokens(t, ned.accountToken);
      await t.http.delete(`/users/me/client-keys/${key.clientId}`).set(bearer(ned.accountToken)).expect(204);
      const overBus = await t.service.bus.request('revocations.snapshot', { limit: 3 });
      const first = await t.http.get('/internal/revocations').query({ limit: 3 }).expect(200);
      expect(first.body).toEqual(overBus);
      const rest = await t.http.get('/internal/revocations').query({ after: overBus.next! }).expect(200);
      expect(rest.body).toEqual(await t.service.bus.request('revocations.snapshot', { after: overBus.next! }));
      expect(rest.body).toMatchObject({ next: null });
      expect([...first.body.clientKeys, ...rest.body.clientKeys]).toContainEqual({ userId: ned.id, clientId: key.clientId });
    });

    it.each([
      ['a cursor that is no number', { after: 'seq-1' }, 'query.after: must be the next of the previous page'],
      ['a limit out of range', { limit: 0 }, 'query.limit: Too small: expected number to be >=1'],
      ['an unknown parameter', { since: '2026' }, 'query: Unrecognized key: "since"'],
    ])('refuses %s with a JSON 400', async (_name, query, message) => {
      const res = await t.http.get('/internal/revocations').query(query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'InvalidInput', message });
    });
  });
});

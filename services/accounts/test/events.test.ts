import type { CallEvent } from '@cloud/call-events';
import { EventsRepository } from '../src/data-access/events.repository';
import { bearer, clientTokens, PASSWORD, startTestAccounts, uniqueEmail, verifiedUser, type TestAccounts } from '../src/testing';

type User = Awaited<ReturnType<typeof verifiedUser>>;

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const EVENT_ID = /^event-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** items[index], failing the test when there is none. */
function nth<T>(items: readonly T[], index: number): T {
  const item = items.at(index);
  if (item === undefined) throw new Error(`expected an item at ${index} of ${items.length}`);
  return item;
}
const call = (event: CallEvent) => `${event.input.method} ${event.input.route} ${event.output.httpStatusCode}`;

describe('GET /users/me/events', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts();
  });
  afterAll(() => t.close());

  /** Lists the user's events once every earlier call has been recorded. */
  const list = async (user: User, query = '') => {
    await t.settle();
    return t.http.get(`/users/me/events${query}`).set(bearer(user.accountToken));
  };
  const events = async (user: User, query = '') => {
    const res = await list(user, query);
    expect(res.status).toBe(200);
    return res.body as CallEvent[];
  };
  /** The user's stored event ids, newest first, once every earlier call has been recorded. */
  const storedIds = async (user: User) => {
    await t.settle();
    return ((await t.service.db('events').where({ user_id: user.id }).orderBy('seq', 'desc').select('id')) as Array<{ id: string }>).map((row) => row.id);
  };
  const getMe = (user: User) => t.http.get('/users/me').set(bearer(user.accountToken)).expect(200);

  describe('records', () => {
    it("lists the caller's own calls newest first, each a full event record", async () => {
      const alice = await verifiedUser(t);
      const me = await t.http.get('/users/me').set(bearer(alice.accountToken)).set('x-request-id', 'trace-me-1');
      expect(me.status).toBe(200);
      const key = await t.http.post('/users/me/client-keys').set(bearer(alice.accountToken)).expect(200);
      const keyId = (key.body as { clientId: string }).clientId;
      const deleted = await t.http.delete(`/users/me/client-keys/${keyId}`).set(bearer(alice.accountToken)).expect(204);

      const recorded = await events(alice);
      expect(recorded.map(call)).toEqual([
        'DELETE /users/me/client-keys/:id 204',
        'POST /users/me/client-keys 200',
        'GET /users/me 200',
        'POST /auth 200',
        'PUT /users/:userId/token/:token 200',
        'POST /users 201',
      ]);
      for (const event of recorded) {
        expect(Object.keys(event).sort()).toEqual(['createdAt', 'id', 'input', 'output', 'serviceData', 'service', 'user'].sort());
        expect(event).toMatchObject({ user: alice.id, service: 'cloud-accounts' });
        expect(event.id).toMatch(EVENT_ID);
        expect(Object.keys(event.output).sort()).toEqual(['bytesOut', 'endTime', 'httpStatusCode', 'startTime']);
        for (const time of [event.output.startTime, event.output.endTime, event.createdAt]) expect(time).toMatch(ISO_MS);
        expect(event.output.startTime <= event.output.endTime).toBe(true);
        expect(Number.isInteger(event.output.bytesOut)).toBe(true);
        expect(event.serviceData.requestId).toEqual(expect.any(String));
      }
      expect(recorded.map((event) => event.createdAt)).toEqual(
        recorded
          .map((event) => event.createdAt)
          .sort()
          .reverse(),
      );
      await t.settle(); // the listing itself is now stored too, as the newest event
      expect(recorded.map((event) => event.id)).toEqual((await storedIds(alice)).slice(1));

      const meEvent = recorded.find((event) => event.serviceData.requestId === me.headers['x-request-id']);
      expect(me.headers['x-request-id']).toBe('trace-me-1');
      expect(meEvent).toMatchObject({ input: { method: 'GET', route: '/users/me' }, output: { httpStatusCode: 200, bytesOut: Buffer.byteLength(me.text) } });
      expect(meEvent!.input).not.toHaveProperty('resourceId');

      const [deleteEvent, keyEvent] = recorded as [CallEvent, CallEvent];
      expect(deleteEvent.serviceData).toEqual({ requestId: deleted.headers['x-request-id'] });
      expect(deleteEvent.input).toEqual({ method: 'DELETE', route: '/users/me/client-keys/:id', resourceId: keyId });
      expect(deleteEvent.output).toMatchObject({ httpStatusCode: 204, bytesOut: 0 });
      expect(keyEvent.serviceData.requestId).toBe(key.headers['x-request-id']);
      expect(keyEvent.output.bytesOut).toBe(Buffer.byteLength(key.text));
    });

    it("never shows another user's events", async () => {
      const alice = await verifiedUser(t);
      const bob = await verifiedUser(t);
      await getMe(bob);
      await getMe(alice);
      const bobIds = await storedIds(bob);
      expect(bobIds).toHaveLength(4);
      const aliceEvents = await events(alice, '?limit=500');
      expect(aliceEvents.length).toBeGreaterThan(0);
      for (const event of aliceEvents) expect(event.user).toBe(alice.id);
      expect(aliceEvents.map((event) => event.id).filter((id) => bobIds.includes(id))).toEqual([]);
      expect((await events(bob)).map((event) => event.id)).toEqual(bobIds);
    });

    it('stores no password, verification token, client secret or token', async () => {
      const email = uniqueEmail('secrets');
      const signUp = await t.http.post('/users').send({ email, password: PASSWORD, displayName: 'Secretive' }).expect(201);
      const userId = (signUp.body as { id: string }).id;
      const verificationToken = await t.verificationTokenFor(email);
      await t.http.put(`/users/${userId}/token/${verificationToken}`).expect(200);
      const wrongPassword = 'wrong horse battery 99';
      await t.http.post('/auth').auth(email, wrongPassword).expect(401);
      const login = await t.http.post('/auth').auth(userId, PASSWORD).expect(200);
      const accountToken = (login.body as { accessToken: string }).accessToken;
      const tokens = await clientTokens(t, accountToken);
      const refreshed = await t.http.post('/auth/token').send({ grantType: 'refreshToken', refreshToken: tokens.refreshToken }).expect(200);
      await t.settle();

      const rows = (await t.service.db('events')) as Array<{ user_id: string }>;
      expect(rows.filter((row) => row.user_id === userId)).toHaveLength(7);
      const stored = JSON.stringify(rows);
      const secrets = {
        password: PASSWORD,
        wrongPassword,
        verificationToken,
        clientSecret: tokens.clientSecret,
        accountToken,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        refreshedAccessToken: (refreshed.body as { accessToken: string }).accessToken,
        basicCredentials: Buffer.from(`${userId}:${PASSWORD}`).toString('base64'),
      };
      for (const [name, secret] of Object.entries(secrets)) expect({ name, found: stored.includes(secret) }).toEqual({ name, found: false });
    });
  });

  describe('paging', () => {
    let carol: User;
    beforeAll(async () => {
      carol = await verifiedUser(t);
      for (let i = 0; i < 55; i += 1) await getMe(carol);
    });

    it('returns the 50 newest events by default', async () => {
      const stored = await storedIds(carol);
      expect(stored.length).toBeGreaterThanOrEqual(58);
      expect((await events(carol)).map((event) => event.id)).toEqual(stored.slice(0, 50));
    });

    it('honours limit=1 and limit=500', async () => {
      const stored = await storedIds(carol);
      expect((await events(carol, '?limit=1')).map((event) => event.id)).toEqual([stored[0]]);
      await t.settle();
      const storedNow = await storedIds(carol);
      expect(storedNow.length).toBeGreaterThan(50);
      expect((await events(carol, '?limit=500')).map((event) => event.id)).toEqual(storedNow);
    });

    it.each(['0', '501', 'abc', '1.5', '-3'])('answers 400 InvalidInput naming query.limit for limit=%s', async (limit) => {
      const res = await list(carol, `?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining('query.limit:') as unknown });
    });

    it('walks every page with before=<last id>, without overlap or gap', async () => {
      const walked: string[] = [];
      let pages = 0;
      for (let before = ''; ;) {
        const page = await events(carol, `?limit=7${before}`);
        pages += 1;
        walked.push(...page.map((event) => event.id));
        if (page.length < 7) break;
        before = `&before=${nth(page, -1).id}`;
      }
      expect(pages).toBeGreaterThan(8);
      expect(new Set(walked).size).toBe(walked.length);
      // The walk's own calls are recorded as newer events; everything older is exactly the walk.
      const all = await events(carol, '?limit=500');
      expect(all.slice(pages).map((event) => event.id)).toEqual(walked);
      expect(all.slice(0, pages).map(call)).toEqual(Array(pages).fill('GET /users/me/events 200'));
    });

    it("answers 400 for a before that is unknown, another user's, or not an event id", async () => {
      const dave = await verifiedUser(t);
      const daveEvent = nth(await storedIds(dave), 0);
      for (const before of ['event-00000000-0000-4000-8000-000000000000', daveEvent]) {
        const res = await list(carol, `?before=${before}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'InvalidInput', message: 'query.before: no such event of yours' });
      }
      for (const before of ['xyz', 'event-1', nth(await storedIds(carol), 0).replace('event-', 'evt-')]) {
        const res = await list(carol, `?before=${before}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'InvalidInput', message: 'query.before: must be an id of the form event-<uuid>' });
      }
    });
  });

  describe('filters', () => {
    it('filters by service', async () => {
      const erin = await verifiedUser(t);
      await getMe(erin);
      const all = await events(erin);
      const cursor = `&before=${nth(all, 0).id}`;
      expect(await events(erin, `?service=cloud-accounts${cursor}`)).toEqual(all.slice(1));
      expect(await events(erin, '?service=cloud-nodes')).toEqual([]);

      const nodesEvent: CallEvent = { ...nth(all, 0), id: 'event-11111111-2222-4333-8444-555555555555', service: 'cloud-nodes' };
      await new EventsRepository(t.service.db).record(nodesEvent);
      expect(await events(erin, '?service=cloud-nodes')).toEqual([nodesEvent]);
      expect((await events(erin, '?service=cloud-accounts')).map((event) => event.service)).not.toContain('cloud-nodes');
    });

    it('filters by since (inclusive) and until (exclusive) ISO timestamps', async () => {
      const frank = await verifiedUser(t);
      // Event times come from the service's clock: move it rather than wait.
      const pause = async () => {
        await t.settle();
        t.clock.advance(1_000);
        const now = t.clock();
        t.clock.advance(1_000);
        return now;
      };
      const early = await getMe(frank);
      const mark1 = await pause();
      const late = await getMe(frank);
      const mark2 = await pause();
      const later = await getMe(frank);
      const [since1, until1, until2] = [mark1, mark1, mark2].map((ms) => new Date(ms).toISOString()) as [string, string, string];
      const requestIds = (recorded: CallEvent[]) => recorded.map((event) => event.serviceData.requestId);
      const idOf = (res: { headers: Record<string, string> }) => res.headers['x-request-id'];

      const since = await events(frank, `?since=${since1}`);
      expect(requestIds(since)).toEqual(expect.arrayContaining([idOf(late), idOf(later)]));
      expect(requestIds(since)).not.toContain(idOf(early));
      for (const event of since) expect(event.createdAt >= since1).toBe(true);

      const until = await events(frank, `?until=${until1}`);
      expect(until.map(call)).toEqual(['GET /users/me 200', 'POST /auth 200', 'PUT /users/:userId/token/:token 200', 'POST /users 201']);
      expect(nth(until, 0).serviceData.requestId).toBe(idOf(early));

      const window = await events(frank, `?since=${since1}&until=${until2}`);
      expect(requestIds(window)).toEqual([idOf(late)]);

      // The same instant written with an offset means the same thing.
      const withOffset = new Date(mark1 + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
      expect(await events(frank, `?until=${encodeURIComponent(withOffset)}`)).toEqual(until);

      const oldest = nth(until, -1);
      expect(await events(frank, `?until=${oldest.createdAt}`)).not.toContainEqual(oldest);
      expect(await events(frank, `?since=${oldest.createdAt}&until=${until1}`)).toContainEqual(oldest);
    });

    it("keeps a client's background reads apart: marked in the event, left out with background=false, alone with background=true", async () => {
      const gina = await verifiedUser(t);
      const polled = await t.http.get('/users/me').set(bearer(gina.accountToken)).set('x-cloud-background', '1').expect(200);
      const acted = await t.http.post('/users/me/client-keys').set(bearer(gina.accountToken)).expect(200);
      // Only the mark `1` counts, and its value is never stored.
      const other = await t.http.get('/users/me').set(bearer(gina.accountToken)).set('x-cloud-background', 'yes please').expect(200);
      const idOf = (res: { headers: Record<string, string> }) => res.headers['x-request-id'];

      const all = await events(gina);
      const polledEvent = all.find((event) => event.serviceData.requestId === idOf(polled));
      expect(polledEvent!.serviceData).toEqual({ requestId: idOf(polled), background: true });
      expect(all.find((event) => event.serviceData.requestId === idOf(other))!.serviceData).toEqual({ requestId: idOf(other) });

      const own = await events(gina, '?background=false');
      expect(own.map((event) => event.serviceData.requestId)).toEqual(expect.arrayContaining([idOf(acted), idOf(other)]));
      expect(own.map((event) => event.serviceData.requestId)).not.toContain(idOf(polled));
      expect(own.every((event) => event.serviceData.background !== true)).toBe(true);

      const background = await events(gina, '?background=true');
      expect(background.map((event) => event.serviceData.requestId)).toEqual([idOf(polled)]);
      // A page of one kind still walks with before=<last id> of that kind.
      expect(await events(gina, `?background=false&limit=1&before=${nth(own, 0).id}`)).toEqual([nth(own, 1)]);
    });

    it.each([
      ['background=maybe', 'query.background:'],
      ['since=yesterday', 'query.since:'],
      ['until=2026-13-01T00:00:00Z', 'query.until:'],
      ['since=1700000000', 'query.since:'],
      ['foo=1', 'foo'],
      ['service=cloud-accounts&verbose=true', 'verbose'],
    ])('answers 400 InvalidInput to ?%s', async (query, named) => {
      const user = await verifiedUser(t);
      const res = await list(user, `?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining(named) as unknown });
    });
  });

  it('refuses a call without an account token (401)', async () => {
    const user = await verifiedUser(t);
    const { accessToken } = await clientTokens(t, user.accountToken);
    expect((await t.http.get('/users/me/events')).status).toBe(401);
    const withClientToken = await t.http.get('/users/me/events').set(bearer(accessToken));
    expect(withClientToken.status).toBe(401);
    expect(withClientToken.body).toMatchObject({ code: 'Unauthorized' });
  });
});

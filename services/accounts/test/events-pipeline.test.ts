import { randomUUID } from 'node:crypto';
import { InProcessBus, message, SharedBusView } from '@cloud/bus';
import type { CallEvent } from '@cloud/call-events';
import { createLogger } from '@cloud/logging';
import { bearer, clientTokens, fakeClock, startTestAccounts, verifiedUser, waitUntil, PASSWORD, type TestAccounts } from '../src/testing';
import { accountsKeys, NODES_SERVICE_NAME, nodeCallEvent, startTestNodes, type TestNodes } from './nodes-service';

type User = Awaited<ReturnType<typeof verifiedUser>>;

/** A valid call event of `user`, as another service would record it. */
function callEvent(user: string, label: string): CallEvent {
  const end = new Date();
  const start = new Date(end.getTime() - 7);
  return {
    id: `event-${randomUUID()}`,
    user,
    service: NODES_SERVICE_NAME,
    input: { method: 'GET', route: '/nodes/:nodeId', resourceId: `node-${label}` },
    output: { startTime: start.toISOString(), endTime: end.toISOString(), httpStatusCode: 200, bytesOut: 42 },
    serviceData: { requestId: label },
    createdAt: end.toISOString(),
  };
}

describe('call events of another service reach the accounts service (in-process bus)', () => {
  const logger = createLogger({ service: 'cloud-test', level: 'silent' });
  let bus: InProcessBus;
  let t: TestAccounts;
  let nodes: TestNodes;
  let alice: User;

  beforeAll(async () => {
    // No retries: a message that fails is dead-lettered at once, so once a later message is
    // handled, every earlier one is settled, stored or dead-lettered, and a test can tell which.
    bus = new InProcessBus(logger, { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 10 });
    t = await startTestAccounts({}, fakeClock(), { bus });
    expect(t.service.bus).toBeInstanceOf(SharedBusView); // its view of the shared bus
    nodes = await startTestNodes({ bus, keys: await accountsKeys(t), clock: t.clock, recordCalls: true });
    await waitUntil('the nodes service has its revocations', () => nodes.ready());
    alice = await verifiedUser(t);
  });
  afterAll(async () => {
    await nodes?.close();
    await bus?.close();
    await t?.close();
  });

  /** The user's events from another service, as GET /users/me/events lists them. */
  const listed = async (user: User): Promise<CallEvent[]> => {
    const res = await t.http.get(`/users/me/events?service=${NODES_SERVICE_NAME}&limit=500`).set(bearer(user.accountToken));
    expect(res.status).toBe(200);
    return res.body as CallEvent[];
  };
  const storedWithId = async (id: string): Promise<number> => {
    const [{ n }] = (await t.service.db('events').where({ id }).count({ n: '*' })) as [{ n: string | number }];
    return Number(n);
  };
  const storedOf = async (userId: string): Promise<number> => {
    const [{ n }] = (await t.service.db('events').where({ user_id: userId }).count({ n: '*' })) as [{ n: string | number }];
    return Number(n);
  };

  it('an event caused at another service is listed once at the accounts service, with its shape and no token', async () => {
    const tokens = await clientTokens(t, alice.accountToken);
    const ok = await nodes.http.get('/nodes/node-7').set(bearer(tokens.accessToken)).set('x-request-id', 'pipe-ok');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ nodeId: 'node-7', user: alice.id });
    const missing = await nodes.http.get('/nodes/missing').set(bearer(tokens.accessToken)).set('x-request-id', 'pipe-missing');
    expect(missing.status).toBe(404);
    // Calls that name no user (no token) are not recorded.
    await nodes.http.get('/nodes/node-7').set('x-request-id', 'pipe-anonymous').expect(401);

    await waitUntil('both events are listed', async () => (await listed(alice)).length === 2);
    const events = await listed(alice);
    expect(events.map((event) => event.serviceData.requestId)).toEqual(['pipe-missing', 'pipe-ok']);
    const [missingEvent, okEvent] = events as [CallEvent, CallEvent];
    expect(okEvent).toEqual(nodeCallEvent(alice.id, 'node-7', 'pipe-ok', Buffer.byteLength(ok.text)));
    expect(okEvent.createdAt).toBe(okEvent.output.endTime);
    expect(missingEvent).toMatchObject({
      user: alice.id,
      service: NODES_SERVICE_NAME,
      input: { method: 'GET', route: '/nodes/:nodeId' },
      output: { httpStatusCode: 404, bytesOut: Buffer.byteLength(missing.text) },
    });
    for (const secret of [tokens.accessToken, tokens.refreshToken, tokens.clientSecret, alice.accountToken, 'Bearer', 'authorization']) {
      expect(JSON.stringify(events)).not.toContain(secret);
    }
    for (const event of events) expect(await storedWithId(event.id)).toBe(1);
    // The accounts service's own calls are still listed with them.
    const all = await t.http.get('/users/me/events?limit=500').set(bearer(alice.accountToken)).expect(200);
    const services = new Set((all.body as CallEvent[]).map((event) => event.service));
    expect([...services].sort()).toEqual(['cloud-accounts', NODES_SERVICE_NAME]);

    await waitUntil('the outbox of the nodes service is empty', async () => (await nodes.outboxRows()) === 0);
    expect(bus.deadLetters('accounts.call-events')).toEqual([]);
  });

  it('the event of a call that failed in its handler keeps the resource id', async () => {
    const tokens = await clientTokens(t, alice.accountToken);
    await nodes.http.get('/nodes/missing').set(bearer(tokens.accessToken)).set('x-request-id', 'pipe-missing-2').expect(404);
    await waitUntil('the event is listed', async () => (await listed(alice)).some((event) => event.serviceData.requestId === 'pipe-missing-2'));
    const event = (await listed(alice)).find((listedEvent) => listedEvent.serviceData.requestId === 'pipe-missing-2');
    expect(event?.input).toEqual({ method: 'GET', route: '/nodes/:nodeId', resourceId: 'missing' });
  });

  it('stores every event of a call.recorded-batch message, once', async () => {
    const packed = message('call.recorded-batch', { events: [callEvent(alice.id, 'packed-1'), callEvent(alice.id, 'packed-2')] });
    await bus.publish([packed, packed]);
    const [first, second] = packed.payload.events;
    await waitUntil('both packed events are stored', async () => (await storedWithId(first!.id)) === 1 && (await storedWithId(second!.id)) === 1);
    const sentinel = message('call.recorded', callEvent(alice.id, 'sentinel-packed'));
    await bus.publish([sentinel]);
    await waitUntil('the sentinel is stored', async () => (await storedWithId(sentinel.payload.id)) === 1);
    expect([await storedWithId(first!.id), await storedWithId(second!.id)]).toEqual([1, 1]);
  });

  it('a call.recorded message delivered twice is stored once', async () => {
    const twice = message('call.recorded', callEvent(alice.id, 'twice'));
    await bus.publish([twice, twice]); // in one batch
    await bus.publish([twice]); // and again later
    await bus.publish([message('call.recorded', twice.payload)]); // the same event under a new message id
    const sentinel = message('call.recorded', callEvent(alice.id, 'sentinel-1'));
    await bus.publish([sentinel]);
    await waitUntil('the sentinel is stored', async () => (await storedWithId(sentinel.payload.id)) === 1);
    expect(await storedWithId(twice.payload.id)).toBe(1);
    const listedIds = (await listed(alice)).map((event) => event.id);
    expect(listedIds.filter((id) => id === twice.payload.id)).toHaveLength(1);
    expect(bus.deadLetters('accounts.call-events')).toEqual([]);
  });

  it('an event of an unknown user is dropped, neither stored nor dead-lettered', async () => {
    const stranger = message('call.recorded', callEvent(`user-${randomUUID()}`, 'stranger'));
    await bus.publish([stranger]);
    const sentinel = message('call.recorded', callEvent(alice.id, 'sentinel-2'));
    await bus.publish([sentinel]);
    await waitUntil('the sentinel is stored', async () => (await storedWithId(sentinel.payload.id)) === 1);
    expect(await storedWithId(stranger.payload.id)).toBe(0);
    expect(await storedOf(stranger.payload.user)).toBe(0);
    expect(bus.deadLetters('accounts.call-events')).toEqual([]);
  });

  it('an event still in the outbox when its user is deleted does not bring the user back', async () => {
    const gina = await verifiedUser(t);
    const tokens = await clientTokens(t, gina.accountToken);
    await nodes.outbox!.stop();
    await nodes.http.get('/nodes/node-g').set(bearer(tokens.accessToken)).expect(200);
    await nodes.settle();
    expect(await nodes.outboxRows()).toBe(1);

    await t.http.delete('/users/me').set(bearer(gina.accountToken)).send({ password: PASSWORD }).expect(204);
    expect(await storedOf(gina.id)).toBe(0);
    // The other service hears of the deletion over the shared bus.
    await waitUntil(
      'the nodes service refuses the deleted user',
      async () => (await nodes.http.get('/nodes/node-g').set(bearer(tokens.accessToken))).status === 401,
    );

    nodes.outbox!.start();
    await waitUntil('the outbox of the nodes service is empty', async () => (await nodes.outboxRows()) === 0);
    // A later event of someone else, relayed after gina's, shows hers has been handled.
    const aliceTokens = await clientTokens(t, alice.accountToken);
    await nodes.http.get('/nodes/node-after').set(bearer(aliceTokens.accessToken)).set('x-request-id', 'after-gina').expect(200);
    await waitUntil('the later event is listed', async () => (await listed(alice)).some((event) => event.serviceData.requestId === 'after-gina'));
    expect(await storedOf(gina.id)).toBe(0);
    expect(bus.deadLetters('accounts.call-events')).toEqual([]);
  });
});

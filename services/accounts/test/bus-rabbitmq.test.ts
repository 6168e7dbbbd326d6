import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { remoteJwks, type PublicKeyResolver } from '@cloud/auth';
import { RabbitMqBus } from '@cloud/bus';
import { BrokerLink, deleteBusTopology, TEST_AMQP_URL, uniqueBusPrefix } from '@cloud/bus/testing';
import type { CallEvent } from '@cloud/call-events';
import { createLogger } from '@cloud/logging';
import { bearer, clientTokens, fakeClock, PASSWORD, startTestAccounts, verifiedUser, waitUntil, type TestAccounts } from '../src/testing';
import { NODES_SERVICE_NAME, nodeCallEvent, startTestNodes, type TestNodes } from './nodes-service';

/** How soon a revocation at the accounts service must be in force at another service. */
const PROPAGATION_MS = 1000;
const NEW_PASSWORD = 'another horse battery 43';

/**
 * The "done when", over a real RabbitMQ: the accounts service and a second service
 * ("cloud-nodes", built from the real parts in nodes-service.ts), each with its own connection to
 * the broker, as two processes would have.
 */
describe('accounts and another service over RabbitMQ', () => {
  const prefix = uniqueBusPrefix('accounts');
  const logger = createLogger({ service: 'cloud-test', level: 'silent' });
  const buses: RabbitMqBus[] = [];
  const nodesServices: TestNodes[] = [];
  let accountsLink: BrokerLink;
  let t: TestAccounts;
  let server: Server;
  let keys: PublicKeyResolver;

  beforeAll(async () => {
    // The accounts service reaches the broker through a link the test can cut, as a broker restart would.
    accountsLink = await BrokerLink.open(TEST_AMQP_URL);
    t = await startTestAccounts({ AMQP_URL: accountsLink.url, AMQP_PREFIX: prefix }, fakeClock());
    expect(t.service.bus).toBeInstanceOf(RabbitMqBus);
    buses.push(t.service.bus as RabbitMqBus);
    await (t.service.bus as RabbitMqBus).waitUntilConnected();
    server = t.service.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    keys = remoteJwks(`http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`);
  });

  afterAll(async () => {
    try {
      for (const nodes of nodesServices) await nodes.close();
      // The accounts service closes its own bus; the others are the test's.
      await Promise.all(buses.slice(1).map((bus) => bus.close()));
      await t?.close();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await accountsLink?.close();
    } finally {
      const [first] = buses;
      if (first) await deleteBusTopology(TEST_AMQP_URL, { exchange: first.exchange, queues: buses.flatMap((bus) => bus.declaredNames().queues) });
    }
  });

  /** A bus of its own, on the same broker and prefix, connected. */
  const connectBus = async (url = TEST_AMQP_URL): Promise<RabbitMqBus> => {
    const bus = await RabbitMqBus.connect({ url, prefix, service: NODES_SERVICE_NAME, logger, maxReconnectDelayMs: 500 });
    buses.push(bus);
    await bus.waitUntilConnected();
    return bus;
  };
  /** A second service on a bus of its own, its revocation set loaded unless told not to start it. */
  const startNodes = async (options: { url?: string; recordCalls?: boolean; startRevocations?: boolean } = {}): Promise<TestNodes> => {
    const bus = await connectBus(options.url);
    const nodes = await startTestNodes({
      bus,
      keys,
      clock: t.clock,
      logger,
      ...(options.recordCalls === undefined ? {} : { recordCalls: options.recordCalls }),
      ...(options.startRevocations === undefined ? {} : { startRevocations: options.startRevocations }),
    });
    nodesServices.push(nodes);
    if (options.startRevocations ?? true) await waitUntil('the revocation set is loaded', () => nodes.ready());
    return nodes;
  };
  /** Stops a second service and its bus, as a process that exits. */
  const stopNodes = async (nodes: TestNodes): Promise<void> => {
    nodesServices.splice(nodesServices.indexOf(nodes), 1);
    await nodes.close();
    await nodes.bus.close();
  };

  const accountsOutboxRows = async (): Promise<number> => {
    const [{ n }] = (await t.service.db('outbox').count({ n: '*' })) as [{ n: string | number }];
    return Number(n);
  };
  const nodeStatus = async (nodes: TestNodes, token: string): Promise<number> => (await nodes.http.get('/nodes/node-1').set(bearer(token))).status;
  /** Runs `revoke` and waits until `check` says the second service refuses; fails unless that took under PROPAGATION_MS. */
  const expectRefusedWithinASecond = async (what: string, revoke: () => Promise<unknown>, check: () => Promise<number>): Promise<void> => {
    const started = Date.now();
    await revoke();
    await waitUntil(what, async () => (await check()) === 401, PROPAGATION_MS, 10);
    expect(Date.now() - started).toBeLessThan(PROPAGATION_MS);
  };

  describe('a revocation at the accounts service is in force at another service within a second', () => {
    let nodes: TestNodes;
    beforeAll(async () => {
      nodes = await startNodes();
    });

    it('a client key deleted at the accounts service makes its client tokens fail at another service', async () => {
      const alice = await verifiedUser(t);
      const doomed = await clientTokens(t, alice.accountToken);
      const kept = await clientTokens(t, alice.accountToken);
      const ok = await nodes.http.get('/nodes/node-1').set(bearer(doomed.accessToken));
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ nodeId: 'node-1', user: alice.id });

      await expectRefusedWithinASecond(
        'the other service refuses the deleted key',
        () => t.http.delete(`/users/me/client-keys/${doomed.clientId}`).set(bearer(alice.accountToken)).expect(204),
        () => nodeStatus(nodes, doomed.accessToken),
      );
      const refused = await nodes.http.get('/nodes/node-1').set(bearer(doomed.accessToken));
      expect(refused.body).toEqual({ code: 'Unauthorized', message: 'token has been revoked' });
      // Only that key's tokens.
      expect(await nodeStatus(nodes, kept.accessToken)).toBe(200);
    });

    it('a password change makes every older token of the user fail at another service', async () => {
      const bob = await verifiedUser(t);
      const client = await clientTokens(t, bob.accountToken);
      const otherKey = await clientTokens(t, bob.accountToken);
      expect(await nodeStatus(nodes, client.accessToken)).toBe(200);

      let newToken = '';
      await expectRefusedWithinASecond(
        'the other service refuses the older client token',
        async () => {
          const res = await t.http
            .put('/users/me/password')
            .set(bearer(bob.accountToken))
            .send({ oldPassword: PASSWORD, newPassword: NEW_PASSWORD })
            .expect(200);
          newToken = (res.body as { accessToken: string }).accessToken;
        },
        () => nodeStatus(nodes, client.accessToken),
      );
      expect(await nodeStatus(nodes, otherKey.accessToken)).toBe(401);
      // A client token made after the change carries the new version.
      expect(await nodeStatus(nodes, (await clientTokens(t, newToken)).accessToken)).toBe(200);
    });

    it('a deleted user’s tokens fail at another service', async () => {
      const carol = await verifiedUser(t);
      const client = await clientTokens(t, carol.accountToken);
      const dave = await verifiedUser(t);
      const daves = await clientTokens(t, dave.accountToken);
      expect(await nodeStatus(nodes, client.accessToken)).toBe(200);

      await expectRefusedWithinASecond(
        'the other service refuses the deleted user',
        () => t.http.delete('/users/me').set(bearer(carol.accountToken)).send({ password: PASSWORD }).expect(204),
        () => nodeStatus(nodes, client.accessToken),
      );
      expect(await nodeStatus(nodes, daves.accessToken)).toBe(200);
      await waitUntil('the accounts outbox is empty', async () => (await accountsOutboxRows()) === 0);
    });
  });

  describe('a service that starts, or comes back, rebuilds what it missed from the snapshot', () => {
    it('a restarted service refuses tokens revoked while it was down, and answers 503 only until its revocations are loaded', async () => {
      const erin = await verifiedUser(t);
      const before = await clientTokens(t, erin.accountToken);
      const whileDown = await clientTokens(t, erin.accountToken);
      const fine = await clientTokens(t, erin.accountToken);
      const first = await startNodes();
      await first.http.get('/nodes/node-1').set(bearer(before.accessToken)).expect(200);
      await expectRefusedWithinASecond(
        'the first instance refuses the key deleted while it runs',
        () => t.http.delete(`/users/me/client-keys/${before.clientId}`).set(bearer(erin.accountToken)).expect(204),
        () => nodeStatus(first, before.accessToken),
      );
      await stopNodes(first);

      // Revoked while no instance of the other service is running: no broadcast reaches anyone.
      await t.http.delete(`/users/me/client-keys/${whileDown.clientId}`).set(bearer(erin.accountToken)).expect(204);
      await waitUntil('the accounts outbox is empty', async () => (await accountsOutboxRows()) === 0);

      const restarted = await startNodes({ startRevocations: false });
      const notYet = await restarted.http.get('/nodes/node-1').set(bearer(fine.accessToken));
      expect(notYet.status).toBe(503);
      expect(notYet.body).toMatchObject({ code: 'NotReady' });
      await restarted.http.get('/readyz').expect(503);

      await restarted.startRevocations();
      await waitUntil('the restarted instance answers other than 503', async () => (await nodeStatus(restarted, fine.accessToken)) !== 503, 5000);
      expect(await nodeStatus(restarted, fine.accessToken)).toBe(200);
      expect(await nodeStatus(restarted, whileDown.accessToken)).toBe(401);
      expect(await nodeStatus(restarted, before.accessToken)).toBe(401);
      await restarted.http.get('/readyz').expect(200);
    });

    it('a service cut off from the broker when a key is deleted refuses its tokens once it is back', async () => {
      const fay = await verifiedUser(t);
      const key = await clientTokens(t, fay.accountToken);
      const old = await clientTokens(t, fay.accountToken);
      const link = await BrokerLink.open(TEST_AMQP_URL);
      let nodes: TestNodes | undefined;
      try {
        nodes = await startNodes({ url: link.url });
        const { bus } = nodes;
        expect(await nodeStatus(nodes, key.accessToken)).toBe(200);
        const running = nodes;
        await t.http.delete(`/users/me/client-keys/${old.clientId}`).set(bearer(fay.accountToken)).expect(204);
        await waitUntil('the service refuses the key deleted before the outage', async () => (await nodeStatus(running, old.accessToken)) === 401, 5000, 20);
        await link.cut();
        await waitUntil('the cut-off service sees its bus down', () => !isReady(bus));
        // Still ready (decision 020), and what it knew before the outage is still enforced.
        const ready = await nodes.http.get('/readyz');
        expect([ready.status, ready.body]).toEqual([200, { status: 'degraded' }]);
        expect(await nodeStatus(nodes, old.accessToken)).toBe(401);
        expect(await nodeStatus(nodes, key.accessToken)).toBe(200);
        await t.http.delete(`/users/me/client-keys/${key.clientId}`).set(bearer(fay.accountToken)).expect(204);
        await waitUntil('the accounts outbox is empty', async () => (await accountsOutboxRows()) === 0);
        await link.restore();
        const back = nodes;
        await waitUntil('the service, back, refuses the key', async () => (await nodeStatus(back, key.accessToken)) === 401, 15_000, 50);
        expect(isReady(bus)).toBe(true);
      } finally {
        await link.restore();
        if (nodes) await stopNodes(nodes);
        await link.close();
      }
    });
  });

  describe('call events of another service reach the accounts service', () => {
    it('an event caused in one service process shows up in GET /users/me/events of the accounts process, and keeps doing so across a RabbitMQ restart', async () => {
      const gus = await verifiedUser(t);
      const tokens = await clientTokens(t, gus.accountToken);
      const link = await BrokerLink.open(TEST_AMQP_URL);
      let producer: TestNodes | undefined;
      try {
        producer = await startNodes({ url: link.url, recordCalls: true });
        const running = producer;
        const { http, bus } = running;
        const listed = async (): Promise<CallEvent[]> => {
          const res = await t.http.get(`/users/me/events?service=${NODES_SERVICE_NAME}&limit=500`).set(bearer(gus.accountToken));
          expect(res.status).toBe(200);
          return res.body as CallEvent[];
        };
        const call = async (requestId: string, nodeId = 'node-42') => {
          const res = await http.get(`/nodes/${nodeId}`).set(bearer(tokens.accessToken)).set('x-request-id', requestId);
          return res;
        };

        const first = await call('rmq-1');
        expect(first.status).toBe(200);
        await waitUntil('the event is listed at the accounts service', async () => (await listed()).length === 1);
        const [event] = await listed();
        expect(event).toEqual(nodeCallEvent(gus.id, 'node-42', 'rmq-1', Buffer.byteLength(first.text)));
        for (const secret of [tokens.accessToken, tokens.refreshToken, tokens.clientSecret, gus.accountToken, 'Bearer']) {
          expect(JSON.stringify(event)).not.toContain(secret);
        }

        // The broker goes away for both services, as in a RabbitMQ restart.
        await Promise.all([link.cut(), accountsLink.cut()]);
        await waitUntil('both buses see the broker gone', () => !isReady(bus) && !isReady(t.service.bus));
        const during = ['rmq-2', 'rmq-3', 'rmq-4', 'rmq-5'];
        for (const requestId of during) {
          // Recording never fails the call: it answers as usual.
          const res = await call(requestId);
          expect(res.status).toBe(200);
          expect(res.body).toEqual({ nodeId: 'node-42', user: gus.id });
        }
        const notFound = await call('rmq-6', 'missing');
        expect(notFound.status).toBe(404);
        await running.settle();
        // Kept in the producer's outbox until the broker takes them.
        expect(await running.outboxRows()).toBe(during.length + 1);

        await Promise.all([link.restore(), accountsLink.restore()]);
        const expected = ['rmq-1', ...during, 'rmq-6'];
        await waitUntil(
          'every event is listed at the accounts service',
          async () => {
            const requestIds = new Set((await listed()).map((listedEvent) => listedEvent.serviceData.requestId));
            return expected.every((requestId) => requestIds.has(requestId));
          },
          30_000,
          100,
        );
        // Each exactly once.
        const events = await listed();
        expect(events.map((listedEvent) => listedEvent.serviceData.requestId).sort()).toEqual([...expected].sort());
        expect(new Set(events.map((listedEvent) => listedEvent.id)).size).toBe(expected.length);
        const rows = (await t.service.db('events').where({ user_id: gus.id, service: NODES_SERVICE_NAME }).select('id')) as { id: string }[];
        expect(rows.map((row) => row.id).sort()).toEqual(events.map((listedEvent) => listedEvent.id).sort());
        expect(events.find((listedEvent) => listedEvent.serviceData.requestId === 'rmq-6')?.output.httpStatusCode).toBe(404);
        await waitUntil('the producer outbox is empty', async () => (await running.outboxRows()) === 0);

        // And the pipeline keeps working after the restart.
        await call('rmq-7').then((res) => expect(res.status).toBe(200));
        await waitUntil('a new event is listed', async () => (await listed()).some((listedEvent) => listedEvent.serviceData.requestId === 'rmq-7'), 10_000);
        expect(JSON.stringify(await listed())).not.toContain(tokens.accessToken);
      } finally {
        await Promise.all([link.restore(), accountsLink.restore()]);
        if (producer) await stopNodes(producer);
        await link.close();
      }
    });
  });
});

function isReady(bus: { checkReady(): void }): boolean {
  try {
    bus.checkReady();
    return true;
  } catch {
    return false;
  }
}

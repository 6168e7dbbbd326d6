import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { migrateToLatest } from '@cloud/db';
import { BusUnavailableError, callEventsOf, createOutbox, InProcessBus, message, Outbox, type AnyBusMessage, type BusMessage, type Payload } from '../src';
import { callEvents, callRecorded, FAST_RETRY, silentLogger, waitUntil } from './helpers';

const SCHEMA = 'outbox_test';
const logger = silentLogger();
// Long enough that a test passing within its deadline shows the relay was woken, not polled.
const NO_POLLING_MS = 60_000;

describe(`Outbox (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}) with the in-process bus`, () => {
  let database: TestDatabase;
  let bus: InProcessBus;
  // The call events that arrived, and in how many messages (the relay packs runs of them).
  const received: Payload<'call.recorded'>[] = [];
  const kinds: string[] = [];
  const payloads = (messages: readonly BusMessage<'call.recorded'>[]) => messages.map((m) => m.payload);
  const outboxes: Outbox[] = [];
  const outbox = (options: { batchSize?: number; pollIntervalMs?: number; on?: InProcessBus } = {}) => {
    const created = new Outbox({ db: database.db, bus: options.on ?? bus, logger, pollIntervalMs: NO_POLLING_MS, ...options });
    outboxes.push(created);
    return created;
  };
  const rows = async () => (await database.db('outbox').orderBy('seq').select('id')).map((row: { id: string }) => row.id);
  const ids = (messages: readonly BusMessage[]) => messages.map((m) => m.id);

  beforeAll(async () => {
    database = await createTestDatabase(SCHEMA);
    await migrateToLatest(database.db, SCHEMA, [createOutbox]);
    bus = new InProcessBus(logger, FAST_RETRY);
    await bus.subscribe({
      queue: 'accounts.call-events',
      batchSize: 100,
      handle: async (messages) => {
        received.push(...messages.flatMap(callEventsOf));
        kinds.push(...messages.map((m) => m.kind));
      },
    });
  });
  afterEach(async () => {
    await Promise.all(outboxes.splice(0).map((o) => o.stop()));
    await database.db('outbox').delete();
    received.length = 0;
    kinds.length = 0;
  });
  afterAll(async () => {
    await bus.close();
    await database.destroy();
  });

  it('publishes a message added in a committed transaction, unchanged, and deletes its row', async () => {
    const relay = outbox();
    relay.start();
    const sent = callRecorded(1);
    await database.db.transaction(async (trx) => {
      await trx.raw('select 1');
      await relay.add(trx, [sent]);
    });
    await waitUntil('the message is published', () => received.length >= 1);
    await waitUntil('its row is deleted', async () => (await rows()).length === 0);
    expect(received).toEqual([sent.payload]);
    expect(kinds).toEqual(['call.recorded']);
  });

  it('publishes a message added outside any transaction', async () => {
    const relay = outbox();
    relay.start();
    const sent = callEvents(3);
    await relay.add(database.db, sent);
    await waitUntil('the messages are published', () => received.length >= 3);
    expect(received).toEqual(payloads(sent));
    expect(kinds).toEqual(['call.recorded-batch']);
    await waitUntil('the relayed rows are deleted', async () => (await rows()).length === 0);
  });

  it('never publishes a message whose transaction rolled back', async () => {
    const relay = outbox();
    relay.start();
    const rolledBack = callRecorded(1);
    await expect(
      database.db.transaction(async (trx) => {
        await relay.add(trx, [rolledBack]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await rows()).toEqual([]);
    // The relay goes by seq: a message added later is published after anything left before it.
    const committed = callRecorded(2);
    await database.db.transaction((trx) => relay.add(trx, [committed]));
    await waitUntil('the committed message is published', () => received.length >= 1);
    expect(received.map((event) => event.id)).toEqual([committed.payload.id]);
    await waitUntil('the relayed row is deleted', async () => (await rows()).length === 0);
  });

  it('publishes a batch in seq order, not by time or id, and leaves the rest for the next round', async () => {
    const relay = outbox({ batchSize: 3 });
    // Added one by one, each older than the one before, so seq order is the only order they share.
    const sent = Array.from({ length: 7 }, (_, index) =>
      message('revocation.user-deleted', { userId: `user-${index}` }, new Date(Date.UTC(2026, 0, 1, 0, 0, 10 - index))),
    );
    for (const m of sent) await relay.add(database.db, [m]);
    const revocations: AnyBusMessage[] = [];
    await bus.subscribe({
      name: `revocations-${Date.now()}`,
      bindings: ['revocation.user-deleted'],
      batchSize: 10,
      handle: async (messages) => {
        revocations.push(...messages.filter((m) => sent.some((s) => s.id === m.id)));
      },
    });
    expect(await relay.relayBatch()).toBe(3);
    await waitUntil('the first batch arrived', () => revocations.length >= 3);
    expect(ids(revocations)).toEqual(ids(sent.slice(0, 3)));
    expect(await rows()).toEqual(ids(sent.slice(3)));
    relay.start();
    await waitUntil('the rest arrived', () => revocations.length >= 7);
    expect(revocations).toEqual(sent);
    // A round deletes its rows when the transaction commits, just after the bus took them.
    await waitUntil('the relayed rows are deleted', async () => (await rows()).length === 0);
  });

  it('keeps the rows when the bus refuses them, for the next round', async () => {
    const closedBus = new InProcessBus(logger, FAST_RETRY);
    await closedBus.close();
    const relay = outbox({ on: closedBus });
    const sent = callEvents(4);
    await relay.add(database.db, sent);
    await expect(relay.relayBatch()).rejects.toThrow(BusUnavailableError);
    expect(await rows()).toEqual(ids(sent));
    // Another relay on a working bus (a replica, or this one after the bus is back) publishes them.
    outbox().start();
    await waitUntil('the kept rows are published', () => received.length >= 4);
    expect(received).toEqual(payloads(sent));
    await waitUntil('the relayed rows are deleted', async () => (await rows()).length === 0);
  });

  it('lets replicas relay the same table: each message published once', async () => {
    const replicas = [outbox({ batchSize: 25 }), outbox({ batchSize: 25 })];
    const sent = callEvents(300);
    for (let i = 0; i < sent.length; i += 50) {
      const chunk = sent.slice(i, i + 50);
      await database.db.transaction((trx) => replicas[(i / 50) % 2]!.add(trx, chunk));
    }
    for (const replica of replicas) replica.start();
    await waitUntil('all 300 are published', () => received.length >= 300);
    await Promise.all(replicas.map((replica) => replica.stop()));
    expect(received).toHaveLength(300);
    expect(new Set(received.map((event) => event.id)).size).toBe(300);
    expect(await rows()).toEqual([]);
  });
});

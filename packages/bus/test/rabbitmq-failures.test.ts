import { migrateToLatest, type Database, type Migration } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { BusUnavailableError, callEventsOf, createOutbox, Outbox, RabbitMqBus, type AnyBusMessage, type BusMessage, type Payload } from '../src';
import { BrokerLink, deleteBusTopology, TEST_AMQP_URL, uniqueBusPrefix } from '../src/testing';
import { callEvents, callRecorded, FAST_RETRY, gate, recordingLogger, silentLogger, waitUntil } from './helpers';

const SCHEMA = 'bus_failures';

/** What the accounts service will do with call events: one row per event id, whatever comes twice. */
const createStoredEvents: Migration = {
  name: '20261122100001_create_stored_events',
  async up(db) {
    await db.schema.createTable('stored_events', (t) => {
      t.string('id', 64).primary();
      t.string('user_id', 128).notNullable();
      t.jsonb('payload').notNullable();
    });
  },
  async down(db) {
    await db.schema.dropTable('stored_events');
  },
};

async function storeEvents(db: Database, messages: readonly AnyBusMessage[]): Promise<void> {
  const rows = messages.flatMap(callEventsOf).map((event) => ({ id: event.id, user_id: event.user, payload: JSON.stringify(event) }));
  if (rows.length > 0) await db('stored_events').insert(rows).onConflict('id').ignore();
}

/** 'closed' once `bus.close()` resolves, or what it was still doing after `ms`. */
async function closeWithin(bus: RabbitMqBus, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`still closing after ${ms} ms`), ms);
  });
  try {
    return await Promise.race([bus.close().then(() => 'closed'), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const notReady = (bus: RabbitMqBus) => {
  try {
    bus.checkReady();
    return false;
  } catch (error) {
    return error instanceof BusUnavailableError;
  }
};

describe(`RabbitMQ bus through network failures (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let database: TestDatabase;
  let prefix: string;
  let buses: RabbitMqBus[];
  let teardown: (() => Promise<unknown>)[];
  let links: BrokerLink[];

  const connectBus = async (url: string, service: string, logger = silentLogger(service)) => {
    const bus = await RabbitMqBus.connect({ url, prefix, service, logger, retry: FAST_RETRY, maxReconnectDelayMs: 300 });
    buses.push(bus);
    await bus.waitUntilConnected();
    return bus;
  };
  const openLink = async () => {
    const link = await BrokerLink.open(TEST_AMQP_URL);
    links.push(link);
    return link;
  };
  const storedIds = async () => (await database.db('stored_events').select('id')).map((row: { id: string }) => row.id).sort();
  const storedCount = async () => Number((await database.db('stored_events').count({ n: '*' }))[0]!.n);
  const outboxCount = async () => Number((await database.db('outbox').count({ n: '*' }))[0]!.n);
  const eventIds = (messages: readonly BusMessage<'call.recorded'>[]) => messages.map((m) => m.payload.id).sort();

  beforeAll(async () => {
    database = await createTestDatabase(SCHEMA);
    await migrateToLatest(database.db, SCHEMA, [createOutbox, createStoredEvents]);
  });
  beforeEach(() => {
    prefix = uniqueBusPrefix('failures');
    buses = [];
    teardown = [];
    links = [];
  });
  afterEach(async () => {
    // Outboxes and held handlers first, then the buses, the links, and what the buses declared.
    for (const step of teardown.reverse()) await step();
    await Promise.all(buses.map((bus) => bus.close()));
    await Promise.all(links.map((link) => link.close()));
    if (buses[0]) await deleteBusTopology(TEST_AMQP_URL, { exchange: buses[0].exchange, queues: buses.flatMap((bus) => bus.declaredNames().queues) });
    await database.db('stored_events').delete();
    await database.db('outbox').delete();
  });
  afterAll(() => database.destroy());

  it('loses nothing when both connections drop mid-stream: every event stored exactly once', async () => {
    const N = 2000;
    const CHUNK = 100;
    const publisherLink = await openLink();
    const consumerLink = await openLink();
    const publisher = await connectBus(publisherLink.url, 'cloud-producer');
    const consumer = await connectBus(consumerLink.url, 'cloud-accounts');
    const deliveries = new Map<string, number>();
    await consumer.subscribe({
      queue: 'accounts.call-events',
      batchSize: 50,
      handle: async (messages) => {
        for (const event of messages.flatMap(callEventsOf)) deliveries.set(event.id, (deliveries.get(event.id) ?? 0) + 1);
        await storeEvents(database.db, messages);
      },
    });
    const outbox = new Outbox({ db: database.db, bus: publisher, logger: silentLogger(), pollIntervalMs: 50 });
    teardown.push(() => outbox.stop());
    outbox.start();

    const events = callEvents(N);
    const cut = gate();
    const producing = (async () => {
      for (let i = 0; i < (N * 3) / 4; i += CHUNK) await database.db.transaction((trx) => outbox.add(trx, events.slice(i, i + CHUNK)));
      // The last quarter is added while the broker is out of reach.
      await cut.promise;
      await database.db.transaction((trx) => outbox.add(trx, events.slice((N * 3) / 4)));
    })();

    await waitUntil('the consumer has stored some events', async () => (await storedCount()) >= 300, 30_000);
    await Promise.all([publisherLink.cut(), consumerLink.cut()]);
    await waitUntil('both buses see the connection is gone', () => notReady(publisher) && notReady(consumer));
    expect(() => publisher.checkReady()).toThrow(BusUnavailableError);
    expect(() => consumer.checkReady()).toThrow(BusUnavailableError);
    await expect(publisher.publish([callRecorded()])).rejects.toThrow(BusUnavailableError);
    cut.release();
    await producing;
    // What was added during the cut cannot have left the outbox.
    expect(await outboxCount()).toBeGreaterThanOrEqual(N / 4);

    await Promise.all([publisherLink.restore(), consumerLink.restore()]);
    await waitUntil('every event is stored', async () => (await storedCount()) >= N, 60_000);
    await waitUntil('the outbox is empty', async () => (await outboxCount()) === 0);
    expect(() => publisher.checkReady()).not.toThrow();
    expect(() => consumer.checkReady()).not.toThrow();
    expect(await storedIds()).toEqual(eventIds(events));
    // Each event reached the consumer at least once; any second delivery was absorbed by the store.
    expect(deliveries.size).toBe(N);
    expect(events.every((m) => (deliveries.get(m.payload.id) ?? 0) >= 1)).toBe(true);
    const delivered = [...deliveries.values()].reduce((sum, n) => sum + n, 0);
    expect(delivered).toBeGreaterThanOrEqual(N);
  });

  it('redelivers to another replica a message whose consumer died before acknowledging it', async () => {
    const linkA = await openLink();
    const a = await connectBus(linkA.url, 'cloud-accounts-a');
    const held = gate();
    // Should the test fail before releasing it, A's close would wait for the handler forever.
    teardown.push(async () => held.release());
    const gotByA: string[] = [];
    await a.subscribe({
      queue: 'accounts.call-events',
      handle: async (messages) => {
        gotByA.push(...messages.map((m) => m.id));
        // Stuck, as a process about to crash is; it never stores the message.
        await held.promise;
        throw new Error('crashed');
      },
    });
    const sent = callRecorded(1);
    const publisher = await connectBus(TEST_AMQP_URL, 'cloud-producer');
    await publisher.publish([sent]);
    await waitUntil('replica A holds the message', () => gotByA.length === 1);

    await linkA.cut();
    await waitUntil('replica A lost its connection', () => notReady(a));
    // close() waits for A's stuck handler; the broker has requeued the message meanwhile.
    const closingA = a.close();

    const b = await connectBus(TEST_AMQP_URL, 'cloud-accounts-b');
    const gotByB: AnyBusMessage[] = [];
    await b.subscribe({
      queue: 'accounts.call-events',
      handle: async (messages) => {
        gotByB.push(...messages);
        await storeEvents(database.db, messages);
      },
    });
    await waitUntil('replica B stored the message', async () => (await storedCount()) === 1);
    held.release();
    await closingA;

    // Anything more for this queue would arrive before a message published now.
    const next = callRecorded(2);
    await publisher.publish([next]);
    await waitUntil('replica B stored the next message', async () => (await storedCount()) === 2);
    expect(gotByA).toEqual([sent.id]);
    expect(gotByB).toEqual([sent, next]);
    expect(await storedIds()).toEqual(eventIds([sent, next]));
    expect(await database.db('stored_events').where({ id: sent.payload.id }).first()).toEqual({
      id: sent.payload.id,
      user_id: 'user-1',
      payload: sent.payload,
    });
  });

  it('closes even when the connection drops just before close, before amqplib noticed', async () => {
    const link = await openLink();
    const bus = await connectBus(link.url, 'cloud-producer');
    // Nothing to cancel first, so close() starts the closing handshake on the dead socket at once.
    await link.cut();
    expect(await closeWithin(bus, 5000)).toBe('closed');
    expect(() => bus.checkReady()).toThrow(BusUnavailableError);
  });

  it('closes while the broker has been away a while, reconnecting in vain, with a consumer and a server', async () => {
    const link = await openLink();
    const bus = await connectBus(link.url, 'cloud-consumer');
    await bus.subscribe({ queue: 'accounts.call-events', handle: async () => undefined });
    await bus.serve('revocations.snapshot', async () => ({ clientKeys: [], credentials: [], users: [] }));
    await link.cut();
    await waitUntil('the bus to notice', () => notReady(bus));
    await new Promise((resolve) => setTimeout(resolve, 1500)); // several reconnections refused
    expect(await closeWithin(bus, 5000)).toBe('closed');
  });

  it('keeps outbox rows while the broker is unreachable and publishes them once it is back', async () => {
    const link = await openLink();
    const { logger, lines } = recordingLogger('cloud-producer');
    const publisher = await connectBus(link.url, 'cloud-producer');
    const consumer = await connectBus(TEST_AMQP_URL, 'cloud-accounts');
    const received: Payload<'call.recorded'>[] = [];
    await consumer.subscribe({
      queue: 'accounts.call-events',
      batchSize: 10,
      handle: async (messages) => {
        received.push(...messages.flatMap(callEventsOf));
        await storeEvents(database.db, messages);
      },
    });
    const outbox = new Outbox({ db: database.db, bus: publisher, logger, pollIntervalMs: 50 });
    teardown.push(() => outbox.stop());
    outbox.start();

    await link.cut();
    await waitUntil('the publisher sees the connection is gone', () => notReady(publisher));
    const sent = callEvents(25);
    await database.db.transaction((trx) => outbox.add(trx, sent));
    await waitUntil('the relay tried and failed', () => lines.some((line) => line.message === 'outbox relay paused: could not publish'));
    expect((await database.db('outbox').orderBy('seq').select('id')).map((row: { id: string }) => row.id)).toEqual(sent.map((m) => m.id));
    expect(received).toEqual([]);

    await link.restore();
    await waitUntil('every message is stored', async () => (await storedCount()) >= sent.length, 30_000);
    await waitUntil('the outbox is empty', async () => (await outboxCount()) === 0);
    expect(await storedIds()).toEqual(eventIds(sent));
    expect(new Set(received.map((event) => event.id))).toEqual(new Set(sent.map((m) => m.payload.id)));
    expect(received.find((event) => event.id === sent[0]!.payload.id)).toEqual(sent[0]!.payload);
  });
});

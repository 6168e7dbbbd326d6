/**
 * Call events per second from publish to stored row: `call.recorded` messages published on
 * RabbitMQ, taken by the accounts service's real consumer and inserted into PostgreSQL.
 *
 *   npm run bench                      # from the repository root
 *   EVENTS=200000 BATCH=1000 npm run bench
 *
 * Three phases, each on EVENTS fresh events:
 *   1. end to end: the consumer runs while the events are published; timed from the first publish
 *      until the events table holds EVENTS rows, polled every 50 ms (the headline figure);
 *   2. publish only: the consumer is stopped, the events are published and confirmed into the queue;
 *   3. drain only: a consumer is started on that full queue and timed until every event is stored.
 *
 * Events are packed as the outbox relay packs them (up to 200 per message); PACK=0 sends one
 * message per event instead, to see the broker's cost per message.
 *
 * Environment: AMQP_URL, DATABASE_URL (a server where we may create databases), EVENTS, BATCH
 * (the consumer's batch size), PUBLISH_CHUNK (messages per `publish` call), STALL_S (give up when no
 * row was stored for that long).
 * A fresh database and a unique broker prefix are used, and both are deleted at the end.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { accountsMigrations, ACCOUNTS_SCHEMA, consumeCallEvents, EventsRepository } from '@cloud/accounts';
import { message, packCallEvents, RabbitMqBus, type BusMessage } from '@cloud/bus';
import { deleteBusTopology, uniqueBusPrefix } from '@cloud/bus/testing';
import { migrateToLatest, type Database } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { createLogger } from '@cloud/logging';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENTS = positiveInteger('EVENTS', 100_000);
const BATCH = positiveInteger('BATCH', 500);
const PUBLISH_CHUNK = positiveInteger('PUBLISH_CHUNK', 1000);
const STALL_MS = positiveInteger('STALL_S', 30) * 1000;
const PACK = process.env.PACK !== '0';
const USERS = 10;
const POLL_MS = 50;

const logger = createLogger({ service: 'bench', level: 'warn' });

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, not ${raw}`);
  return value;
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

const userIds = Array.from({ length: USERS }, (_, index) => `user-bench-${index}`);

/**
 * `count` valid call events, spread over the bench users, as the outbox relay publishes them:
 * packed into `call.recorded-batch` messages, or one message each with PACK=0.
 */
function eventMessages(count: number): BusMessage[] {
  const one = callEvents(count);
  return PACK ? packCallEvents(one) : one;
}

function callEvents(count: number): BusMessage<'call.recorded'>[] {
  const now = new Date();
  const startTime = new Date(now.getTime() - 12).toISOString();
  const endTime = now.toISOString();
  return Array.from({ length: count }, (_, index) =>
    message(
      'call.recorded',
      {
        id: `event-${randomUUID()}`,
        user: userIds[index % USERS]!,
        service: 'node-proxy',
        input: { method: 'POST', route: '/nodes/:nodeId/rpc', resourceId: 'node-bench' },
        output: { startTime, endTime, httpStatusCode: 200, bytesOut: 512 },
        serviceData: { requestId: `req-${index}` },
        createdAt: endTime,
      },
      now,
    ),
  );
}

/** Publishes in chunks of PUBLISH_CHUNK, each awaited until the broker confirmed it; returns seconds taken. */
async function publishAll(bus: RabbitMqBus, messages: readonly BusMessage[]): Promise<number> {
  const started = performance.now();
  for (let offset = 0; offset < messages.length; offset += PUBLISH_CHUNK) {
    await bus.publish(messages.slice(offset, offset + PUBLISH_CHUNK));
  }
  return (performance.now() - started) / 1000;
}

async function countEvents(db: Database): Promise<number> {
  const [row] = (await db('events').count({ count: '*' })) as { count: string | number }[];
  return Number(row?.count ?? 0);
}

/**
 * The highest `seq`: an index lookup, where `count(*)` scans the table (30 ms at 200,000 rows, 20
 * times a second: a good part of the database's CPU, taken from the pipeline being measured). It
 * equals the count unless sequence values were skipped (a failed insert), so a run is confirmed by
 * `count(*)` and falls back to it.
 */
async function highestSeq(db: Database): Promise<number> {
  const [row] = (await db('events').max({ max: 'seq' })) as { max: string | number | null }[];
  return Number(row?.max ?? 0);
}

/** Polls every POLL_MS until the events table holds `target` rows; returns when it did (performance.now()). */
async function waitForRows(db: Database, target: number): Promise<number> {
  let last = -1;
  let progressed = performance.now();
  let exact = false;
  for (;;) {
    const count = exact ? await countEvents(db) : await highestSeq(db);
    const now = performance.now();
    if (count >= target) {
      if (exact || (await countEvents(db)) >= target) return now;
      exact = true;
      continue;
    }
    if (count > last) {
      last = count;
      progressed = now;
    } else if (now - progressed > STALL_MS) {
      throw new Error(`stalled: ${count} of ${target} events stored, none for ${STALL_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function insertUsers(db: Database): Promise<void> {
  const now = new Date();
  await db('users').insert(
    userIds.map((id) => ({
      id,
      email: `${id}@bench.invalid`,
      password_hash: 'x',
      display_name: id,
      billing_address: JSON.stringify({}),
      verified_at: now,
      created_at: now,
      updated_at: now,
    })),
  );
}

/** Rejects after `ms`, so a broker that is not there fails the run instead of being waited for forever. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface Result {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  publishOnly: { seconds: number; eventsPerSecond: number };
  drainOnly: { seconds: number; eventsPerSecond: number };
  /** Messages the events travelled in. */
  messages: number;
  batch: number;
  publishChunk: number;
  node: string;
  postgres: string;
  cpu: string;
  cpus: number;
  memoryGiB: number;
}

async function main(): Promise<void> {
  const prefix = uniqueBusPrefix('bench');
  const buses: RabbitMqBus[] = [];
  const declared = { exchange: '', queues: new Set<string>() };
  let database: TestDatabase | undefined;
  try {
    database = await createTestDatabase(ACCOUNTS_SCHEMA, { serverUrl: DATABASE_URL, poolMax: 10 });
    const { db } = database;
    await migrateToLatest(db, ACCOUNTS_SCHEMA, accountsMigrations);
    await insertUsers(db);
    const { rows } = (await db.raw('show server_version')) as { rows: { server_version: string }[] };
    const postgres = rows[0]?.server_version ?? 'unknown';

    const open = async (service: string) => {
      const bus = await RabbitMqBus.connect({ url: AMQP_URL, prefix, service, logger });
      buses.push(bus);
      await within(10_000, `connecting to ${new URL(AMQP_URL).host}`, bus.waitUntilConnected());
      return bus;
    };
    const events = new EventsRepository(db);

    // 1. End to end: consumer running, publish, wait for the rows.
    const consumer = await open('bench-consumer');
    await consumeCallEvents(consumer, events, BATCH);
    const publisher = await open('bench-publisher');
    const first = eventMessages(EVENTS);
    const started = performance.now();
    const stored = waitForRows(db, EVENTS);
    const [, done] = await Promise.all([publishAll(publisher, first), stored]);
    const seconds = (done - started) / 1000;

    // 2. Publish only: no consumer, the events wait in the durable queue.
    await consumer.close();
    const second = eventMessages(EVENTS);
    const publishSeconds = await publishAll(publisher, second);

    // 3. Drain only: a consumer on the full queue.
    const drainer = await open('bench-consumer');
    const drainStarted = performance.now();
    await consumeCallEvents(drainer, events, BATCH);
    const drained = await waitForRows(db, 2 * EVENTS);
    const drainSeconds = (drained - drainStarted) / 1000;

    const rate = (taken: number) => Math.round(EVENTS / taken);
    const cpus = os.cpus();
    const result: Result = {
      events: EVENTS,
      seconds: round(seconds),
      eventsPerSecond: rate(seconds),
      publishOnly: { seconds: round(publishSeconds), eventsPerSecond: rate(publishSeconds) },
      drainOnly: { seconds: round(drainSeconds), eventsPerSecond: rate(drainSeconds) },
      messages: first.length,
      batch: BATCH,
      publishChunk: PUBLISH_CHUNK,
      node: process.version,
      postgres,
      cpu: cpus[0]?.model.trim() ?? 'unknown',
      cpus: cpus.length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    };
    print(JSON.stringify(result));
    print(
      `${result.events} events, publish → stored row: ${result.seconds} s, ${result.eventsPerSecond} events/s ` +
        `(publish only ${result.publishOnly.eventsPerSecond}/s, consume + insert only ${result.drainOnly.eventsPerSecond}/s; ` +
        `${result.messages} messages, consumer batch ${BATCH}, publish chunk ${PUBLISH_CHUNK}; Node ${result.node}, PostgreSQL ${postgres}, ${result.cpus} × ${result.cpu})`,
    );
  } finally {
    for (const bus of buses) {
      await bus.close().catch((error: unknown) => logger.warn('could not close a bus', { error }));
      const names = bus.declaredNames();
      if (names.queues.length > 0) declared.exchange = names.exchange;
      for (const queue of names.queues) declared.queues.add(queue);
    }
    if (declared.exchange) {
      await deleteBusTopology(AMQP_URL, { exchange: declared.exchange, queues: [...declared.queues] }).catch((error: unknown) =>
        logger.warn('could not delete the bench topology', { error, prefix }),
      );
    }
    await database?.destroy();
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

main().then(
  () => undefined,
  (error: unknown) => {
    logger.error('benchmark failed', { error });
    process.exitCode = 1;
  },
);

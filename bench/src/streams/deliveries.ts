// Section `deliveries`: events per second from the database to a local receiver. EVENTS block
// events are written straight into one stream's rows (as the scanner leaves them: pending, seq
// 1…N), then StreamDelivery (the service's own delivery, its repository, webhook client, target
// policy and signing) is called as the worker calls it until every event is delivered; timed from
// the first call to the receiver holding them all.
import { randomBytes, randomUUID } from 'node:crypto';
import { migrateToLatest, type Database } from '@cloud/db';
import { createTestDatabase } from '@cloud/db/testing';
import { createLogger } from '@cloud/logging';
import { loadStreamsConfig, streamsMigrations, STREAMS_SCHEMA } from '@cloud/streams';
import {
  DeliveriesRepository,
  newSigningSecret,
  SecretBox,
  StreamDelivery,
  TargetPolicy,
  toStreamRecord,
  WebhookClient,
  type StreamRow,
} from '@cloud/streams/deliveries';
import { BenchReceiver } from './receiver';

export interface DeliveriesFigures {
  events: number;
  batchEvents: number;
  seconds: number;
  eventsPerSecond: number;
  posts: number;
  database: 'PostgreSQL' | 'PGlite';
}

const STREAM_ID = 'stream-00000000-0000-4000-8000-00000000be4c';

/** Inserts the stream and its `events` pending block events, in chunks. */
async function fillStream(db: Database, url: string, secrets: SecretBox, events: number): Promise<void> {
  const now = new Date();
  await db('streams').insert({
    id: STREAM_ID,
    user_id: 'user-bench',
    node_id: 'node-bench',
    name: 'bench',
    kind: 'blocks',
    url,
    secret_sealed: secrets.seal(newSigningSecret(), STREAM_ID),
    cursor_height: events,
    cursor_hash: `0x${'0'.repeat(64)}`,
    next_seq: events + 1,
    created_at: now,
    updated_at: now,
  });
  const rows = Array.from({ length: events }, (_, index) => {
    const height = index + 1;
    const body = {
      id: `evt-${randomUUID()}`,
      type: 'block',
      height,
      hash: `0x${randomBytes(32).toString('hex')}`,
      parentHash: `0x${randomBytes(32).toString('hex')}`,
      time: now.toISOString(),
      transactions: 0,
    };
    return { stream_id: STREAM_ID, seq: height, id: body.id, type: 'block', height, body: JSON.stringify(body), created_at: now };
  });
  for (let from = 0; from < rows.length; from += 1000) await db('stream_events').insert(rows.slice(from, from + 1000));
}

export async function deliveriesSection(events: number): Promise<DeliveriesFigures> {
  // The service's own settings (batch size and limits as deployed), with this machine allowed as a target.
  const config = loadStreamsConfig({ ...process.env, STREAMS_ALLOW_TARGETS: 'loopback' });
  const database = await createTestDatabase('streams');
  const receiver = new BenchReceiver();
  await receiver.start();
  try {
    await migrateToLatest(database.db, STREAMS_SCHEMA, streamsMigrations);
    const secrets = new SecretBox(randomBytes(32));
    await fillStream(database.db, receiver.url, secrets, events);
    const delivery = new StreamDelivery({
      repository: new DeliveriesRepository(database.db),
      client: new WebhookClient(config.STREAMS_DELIVERY_TIMEOUT_MS),
      targets: TargetPolicy.fromSetting(config.STREAMS_ALLOW_TARGETS),
      secrets,
      settings: {
        batchEvents: config.STREAMS_BATCH_EVENTS,
        batchBytes: config.STREAMS_BATCH_BYTES,
        retryBaseMs: config.STREAMS_RETRY_BASE_MS,
        retryMaxMs: config.STREAMS_RETRY_MAX_MS,
        retryForMs: config.STREAMS_RETRY_FOR_MS,
      },
      logger: createLogger({ service: 'bench', level: 'warn' }),
    });
    let stream = toStreamRecord((await database.db('streams').where({ id: STREAM_ID }).first()) as StreamRow);
    const started = performance.now();
    while (stream.deliveredSeq < events) {
      const step = await delivery.deliverDue(stream);
      if (step.delivered === 0) throw new Error(`a delivery step delivered nothing at seq ${step.stream.deliveredSeq}: ${step.stream.lastError ?? 'no error'}`);
      stream = step.stream;
    }
    await receiver.received(events);
    const seconds = (performance.now() - started) / 1000;
    return {
      events,
      batchEvents: config.STREAMS_BATCH_EVENTS,
      seconds,
      eventsPerSecond: events / seconds,
      posts: receiver.posts,
      database: database.url ? 'PostgreSQL' : 'PGlite',
    };
  } finally {
    await receiver.close();
    await database.destroy();
  }
}

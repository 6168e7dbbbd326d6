import type { Migration } from '@cloud/db';

/**
 * Streams, the events each has found on its node's chain (its durable outbox, in order), the
 * chain it scanned (to see reorgs), the Bitcoin outputs it watches being spent, and its log of
 * delivery attempts (docs/decisions/024-streams.md).
 */
export const createStreams: Migration = {
  name: '20261128120000_create_streams',
  async up(db) {
    await db.schema.createTable('streams', (t) => {
      // `stream-<uuid>`
      t.string('id', 64).primary();
      t.string('user_id', 64).notNullable();
      // The node (`node-<uuid>`) or pool (`pool-<uuid>`) followed.
      t.string('node_id', 64).notNullable();
      t.string('name', 64).notNullable();
      // `blocks` or `transactions`.
      t.string('kind', 16).notNullable();
      t.text('url').notNullable();
      // JSON arrays of strings: the watched addresses and (eth) log topics of a `transactions` stream.
      t.text('addresses').notNullable().defaultTo('[]');
      t.text('topics').notNullable().defaultTo('[]');
      // The signing secret, sealed (AES-256-GCM, `<keyId>.<iv>.<tag>.<ciphertext>` in base64url).
      t.text('secret_sealed').notNullable();
      // `active` or `paused` (neither scanned nor delivered; resumes where it stopped).
      t.string('state', 16).notNullable().defaultTo('active');
      // The first block asked for; null: the node's head when the stream was first scanned.
      t.bigInteger('from_height');
      // The last block scanned (its events are in stream_events); null before the first.
      t.bigInteger('cursor_height');
      t.string('cursor_hash', 130);
      // The seq the next event gets; every event at or below delivered_seq is delivered or parked.
      t.bigInteger('next_seq').notNullable().defaultTo(1);
      t.bigInteger('delivered_seq').notNullable().defaultTo(0);
      // The pending batch's failed attempts in a row, since when, the next try, and the last error.
      t.integer('attempts').notNullable().defaultTo(0);
      t.timestamp('failing_since', { useTz: true });
      t.timestamp('next_attempt_at', { useTz: true });
      t.text('last_error');
      // Which replica scans and delivers the stream, until when (renewed while it runs).
      t.string('lease_owner', 128);
      t.timestamp('lease_until', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // Set when the user deleted it, or its node, pool or user was deleted (ended_reason says which).
      t.timestamp('deleted_at', { useTz: true });
      t.string('ended_reason', 64);
      t.index(['user_id', 'created_at']);
      t.index(['node_id']);
      t.index(['deleted_at', 'lease_until']);
    });
    await db.schema.createTable('stream_events', (t) => {
      t.string('stream_id', 64).notNullable().references('id').inTable('streams').onDelete('CASCADE');
      t.bigInteger('seq').notNullable();
      // `evt-<uuid>`: kept through every redelivery and replay, for receivers to de-duplicate on.
      t.string('id', 64).notNullable();
      // `block`, `reorg` or `transaction`.
      t.string('type', 16).notNullable();
      t.bigInteger('height');
      // The event as delivered (JSON, without `seq`, which the delivery adds).
      t.text('body').notNullable();
      // `pending`, `delivered` or `dead` (parked after failing for STREAMS_RETRY_FOR_MS).
      t.string('status', 16).notNullable().defaultTo('pending');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('delivered_at', { useTz: true });
      t.primary(['stream_id', 'seq']);
      t.index(['stream_id', 'status', 'seq']);
    });
    await db.schema.createTable('stream_blocks', (t) => {
      // The last blocks a stream scanned, height → hash: where a reorg forked from.
      t.string('stream_id', 64).notNullable().references('id').inTable('streams').onDelete('CASCADE');
      t.bigInteger('height').notNullable();
      t.string('hash', 130).notNullable();
      t.primary(['stream_id', 'height']);
    });
    await db.schema.createTable('stream_outputs', (t) => {
      // Bitcoin family: outputs paying a watched address, so that the input spending one is seen
      // (a block's inputs name only the output they spend).
      t.string('stream_id', 64).notNullable().references('id').inTable('streams').onDelete('CASCADE');
      t.string('txid', 64).notNullable();
      t.integer('vout').notNullable();
      t.string('address', 128).notNullable();
      t.string('value', 40).notNullable();
      t.bigInteger('height').notNullable();
      t.primary(['stream_id', 'txid', 'vout']);
    });
    await db.schema.createTable('stream_deliveries', (t) => {
      t.bigIncrements('id').primary();
      t.string('stream_id', 64).notNullable().references('id').inTable('streams').onDelete('CASCADE');
      // `dlv-<uuid>`: sent with the attempt (a retry of the same batch gets a new one).
      t.string('delivery_id', 64).notNullable();
      t.integer('attempt').notNullable();
      t.bigInteger('first_seq');
      t.bigInteger('last_seq');
      t.integer('events').notNullable();
      // `delivered`, `failed`, `parked` or `test`.
      t.string('outcome', 16).notNullable();
      t.integer('status_code');
      t.integer('latency_ms').notNullable();
      t.text('error');
      t.timestamp('at', { useTz: true }).notNullable();
      t.index(['stream_id', 'id']);
    });
  },
  async down(db) {
    await db.schema.dropTable('stream_deliveries');
    await db.schema.dropTable('stream_outputs');
    await db.schema.dropTable('stream_blocks');
    await db.schema.dropTable('stream_events');
    await db.schema.dropTable('streams');
  },
};

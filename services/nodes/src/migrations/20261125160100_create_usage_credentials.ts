import type { Migration } from '@cloud/db';

/**
 * Calls per named Basic credential of a node, by outcome, in the same time buckets as
 * `usage_calls` (and under the same retention). Counted from the same `node.usage` messages, in
 * the same transaction, so a message is counted once here too.
 */
export const createUsageCredentials: Migration = {
  name: '20261125160100_create_usage_credentials',
  async up(db) {
    await db.schema.createTable('usage_credential_calls', (t) => {
      t.string('granularity', 8).notNullable();
      t.timestamp('bucket_start', { useTz: true }).notNullable();
      t.string('node_id', 128).notNullable();
      t.string('user_id', 128).notNullable();
      t.string('credential_id', 128).notNullable();
      t.string('outcome', 16).notNullable();
      t.bigInteger('calls').notNullable();
      t.primary(['granularity', 'node_id', 'bucket_start', 'credential_id', 'outcome']);
      t.index(['user_id']);
      t.index(['granularity', 'bucket_start']);
    });
  },
  async down(db) {
    await db.schema.dropTable('usage_credential_calls');
  },
};

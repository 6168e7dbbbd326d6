import type { Migration } from '@cloud/db';

/**
 * The node-proxy's usage counts in time buckets (`minute`, `hour`), and the ids of the `node.usage`
 * messages already counted, so a message delivered again is not counted twice. A later dimension
 * (the credential a call used) becomes one more key column of `usage_calls`.
 */
export const createUsage: Migration = {
  name: '20261125150100_create_usage',
  async up(db) {
    await db.schema.createTable('usage_calls', (t) => {
      t.string('granularity', 8).notNullable();
      t.timestamp('bucket_start', { useTz: true }).notNullable();
      t.string('node_id', 128).notNullable();
      t.string('user_id', 128).notNullable();
      t.string('method', 128).notNullable();
      t.string('outcome', 16).notNullable();
      t.bigInteger('calls').notNullable();
      t.primary(['granularity', 'node_id', 'bucket_start', 'method', 'outcome']);
      t.index(['user_id', 'granularity', 'bucket_start']);
      // The retention job deletes by age.
      t.index(['granularity', 'bucket_start']);
    });
    await db.schema.createTable('usage_traffic', (t) => {
      t.string('granularity', 8).notNullable();
      t.timestamp('bucket_start', { useTz: true }).notNullable();
      t.string('node_id', 128).notNullable();
      t.string('user_id', 128).notNullable();
      t.bigInteger('requests').notNullable();
      t.bigInteger('bytes_in').notNullable();
      t.bigInteger('bytes_out').notNullable();
      t.primary(['granularity', 'node_id', 'bucket_start']);
      t.index(['user_id', 'granularity', 'bucket_start']);
      t.index(['granularity', 'bucket_start']);
    });
    await db.schema.createTable('usage_messages', (t) => {
      t.string('id', 128).primary();
      t.timestamp('received_at', { useTz: true }).notNullable().index();
    });
  },
  async down(db) {
    await db.schema.dropTable('usage_messages');
    await db.schema.dropTable('usage_traffic');
    await db.schema.dropTable('usage_calls');
  },
};

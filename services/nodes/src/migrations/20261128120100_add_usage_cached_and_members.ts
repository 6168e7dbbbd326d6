import type { Migration } from '@cloud/db';

/**
 * Issue 31: calls the proxy answered from its cache or tracked head (`cached_calls`, beside the
 * requests and bytes of each endpoint's bucket; 0 for buckets from before), and a pool's calls by
 * the member node that served them (`usage_member_calls`, `node_id` being the pool's id). Both
 * counted from the same `node.usage` messages in the same transaction, so a message counts once,
 * and kept as long as the other buckets.
 */
export const addUsageCachedAndMembers: Migration = {
  name: '20261128120100_add_usage_cached_and_members',
  async up(db) {
    await db.schema.alterTable('usage_traffic', (t) => {
      t.bigInteger('cached_calls').notNullable().defaultTo(0);
    });
    await db.schema.createTable('usage_member_calls', (t) => {
      t.string('granularity', 8).notNullable();
      t.timestamp('bucket_start', { useTz: true }).notNullable();
      t.string('node_id', 128).notNullable();
      t.string('user_id', 128).notNullable();
      t.string('member_id', 128).notNullable();
      t.bigInteger('calls').notNullable();
      t.primary(['granularity', 'node_id', 'bucket_start', 'member_id']);
      t.index(['user_id']);
      t.index(['granularity', 'bucket_start']);
    });
  },
  async down(db) {
    await db.schema.dropTable('usage_member_calls');
    await db.schema.alterTable('usage_traffic', (t) => {
      t.dropColumn('cached_calls');
    });
  },
};
